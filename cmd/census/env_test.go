package main

import (
	"testing"
	"time"
)

func TestEnvDurations(t *testing.T) {
	tests := []struct {
		name, env       string
		ack, retryDelay time.Duration
	}{
		{"unset", "", 0, 0},
		{"short", "20ms", 0, 20 * time.Millisecond},
		{"seconds", "3s", 3 * time.Second, 3 * time.Second},
		{"zero", "0s", 0, 0},
		{"negative", "-1s", 0, 0},
		{"not a duration", "soon", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(envAckWait, tc.env)
			t.Setenv(envRetryDelay, tc.env)
			if got := ackWait(); got != tc.ack {
				t.Errorf("ackWait() with %s=%q = %v, want %v", envAckWait, tc.env, got, tc.ack)
			}
			if got := retryDelay(); got != tc.retryDelay {
				t.Errorf("retryDelay() with %s=%q = %v, want %v", envRetryDelay, tc.env, got, tc.retryDelay)
			}
		})
	}
}
