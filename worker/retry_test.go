package worker

import (
	"testing"
	"time"
)

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		env  string
		want time.Duration
	}{
		{"", DefaultRetryDelay},
		{"50ms", 50 * time.Millisecond},
		{"1m", time.Minute},
		{"0s", DefaultRetryDelay},
		{"-1s", DefaultRetryDelay},
		{"soon", DefaultRetryDelay},
	}
	for _, tc := range tests {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv("CENSUS_RETRY_DELAY", tc.env)
			if got := RetryDelay(); got != tc.want {
				t.Errorf("RetryDelay() with CENSUS_RETRY_DELAY=%q = %v, want %v", tc.env, got, tc.want)
			}
		})
	}
}
