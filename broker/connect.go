package broker

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ConnOptions say how to reach NATS. User and password may also be given in
// the URL (nats://user:pass@host:4222).
type ConnOptions struct {
	URL string
	// Name is the client name the server shows.
	Name string
	// Creds is a credentials file (JWT and NKey seed).
	Creds string
	// Token is an authentication token.
	Token string
	// TLSCA, TLSCert and TLSKey are PEM files: the CA to trust, and the
	// client certificate and key for mutual TLS.
	TLSCA, TLSCert, TLSKey string
	// Timeout bounds the first connection.
	Timeout time.Duration
}

// ErrUnreachable is returned when no NATS server answers at the URL.
var ErrUnreachable = errors.New("cannot reach NATS")

// ErrAuth is returned when NATS refuses the credentials.
var ErrAuth = errors.New("NATS refused the credentials")

// Redact returns u with any password or token in it replaced, for logs.
func Redact(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	if _, ok := p.User.Password(); ok {
		p.User = url.UserPassword(p.User.Username(), "redacted")
	} else {
		p.User = url.User("redacted")
	}
	return p.String()
}

// Connect opens a connection that reconnects forever, and its JetStream
// context. It fails with ErrUnreachable or ErrAuth, naming the URL without
// its secrets.
func Connect(ctx context.Context, o ConnOptions) (*Conn, error) {
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.Timeout(o.Timeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(false),
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.TLSCA != "" {
		opts = append(opts, nats.RootCAs(o.TLSCA))
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		opts = append(opts, nats.ClientCert(o.TLSCert, o.TLSKey))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		switch {
		case errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired), errors.Is(err, nats.ErrAuthRevoked):
			return nil, fmt.Errorf("%w at %s: %v", ErrAuth, Redact(o.URL), err)
		case errors.Is(err, nats.ErrNoServers):
			return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, Redact(o.URL), err)
		}
		if isAuthText(err.Error()) {
			return nil, fmt.Errorf("%w at %s: %v", ErrAuth, Redact(o.URL), err)
		}
		return nil, fmt.Errorf("connect to NATS at %s: %w", Redact(o.URL), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream at %s: %w", Redact(o.URL), err)
	}
	// Fail early, with a clear message, when JetStream is off.
	actx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	if _, err := js.AccountInfo(actx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("JetStream at %s: %w (is the server started with JetStream on?)", Redact(o.URL), err)
	}
	return &Conn{NC: nc, JS: js}, nil
}

func isAuthText(s string) bool {
	return strings.Contains(strings.ToLower(s), "authorization violation")
}
