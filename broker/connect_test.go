package broker

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	const secret = "s3cr3t-PW-4a9f"
	tests := []struct{ in, want string }{
		{"nats://127.0.0.1:4222", "nats://127.0.0.1:4222"},
		{"nats://worker:" + secret + "@n1:4222", "nats://worker:redacted@n1:4222"},
		{"nats://" + secret + "@n1:4222", "nats://redacted@n1:4222"},
		{"tls://worker:" + secret + "@n1:4222", "tls://worker:redacted@n1:4222"},
		// A list: every URL in it.
		{"nats://w:" + secret + "@n1:4222,nats://w:" + secret + "@n2:4222", "nats://w:redacted@n1:4222,nats://w:redacted@n2:4222"},
		// What net/url cannot parse: no scheme, a '/' or '@' in the password.
		{"w:" + secret + "@n1:4222", "w:redacted@n1:4222"},
		{"nats://w:a/" + secret + "@n1:4222", "nats://w:redacted@n1:4222"},
		{"nats://w:a@" + secret + "@n1:4222", "nats://w:redacted@n1:4222"},
		{"nats://w:%zz" + secret + "@n1:4222", "nats://w:redacted@n1:4222"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			got := Redact(tc.in)
			if got != tc.want {
				t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if strings.Contains(got, secret) {
				t.Errorf("Redact(%q) = %q keeps the secret", tc.in, got)
			}
		})
	}
}
