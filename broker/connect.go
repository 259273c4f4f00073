package broker

import (
	"context"
	"errors"
	"fmt"
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
	// User and Password log in as a NATS user when the URL names none.
	User, Password string
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

// Redact returns u, one NATS URL or a comma separated list of them, with
// every password or token replaced, for logs and errors. It works on the
// text rather than a parsed URL so that nothing that fails to parse (a list,
// a URL without scheme, a password with a '/' in it) slips through.
func Redact(u string) string {
	parts := strings.Split(u, ",")
	for i, p := range parts {
		parts[i] = redactOne(p)
	}
	return strings.Join(parts, ",")
}

func redactOne(u string) string {
	scheme, rest := "", u
	if i := strings.Index(u, "://"); i >= 0 {
		scheme, rest = u[:i+3], u[i+3:]
	}
	// A password may hold '@': the host starts after the last one.
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return u
	}
	if name, _, ok := strings.Cut(rest[:at], ":"); ok {
		return scheme + name + ":redacted@" + rest[at+1:]
	}
	// A user alone is a token to NATS.
	return scheme + "redacted@" + rest[at+1:]
}

// PublishAckWait is how long an asynchronous publish waits for the
// stream's acknowledgement before it fails with
// jetstream.ErrAsyncPublishTimeout (and its caller publishes again).
const PublishAckWait = 10 * time.Second

// Connect opens a connection that reconnects forever, and its JetStream
// context. It fails with ErrUnreachable or ErrAuth, naming the URL without
// its secrets.
func Connect(ctx context.Context, o ConnOptions) (*Conn, error) {
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	d := &denials{active: map[int]context.CancelCauseFunc{}}
	closed := make(chan struct{})
	opts := []nats.Option{
		nats.ClosedHandler(func(*nats.Conn) { close(closed) }),
		nats.Name(o.Name),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { d.report(err) }),
		nats.Timeout(o.Timeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(false),
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if o.User != "" || o.Password != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
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
		if hint := tlsHint(err.Error()); hint != "" {
			return nil, fmt.Errorf("connect to NATS at %s: %w (%s)", Redact(o.URL), err, hint)
		}
		return nil, fmt.Errorf("connect to NATS at %s: %w", Redact(o.URL), err)
	}
	// An asynchronous publish to a stream whose leader has just gone is
	// never answered: without a deadline its caller would wait for ever
	// rather than publish again once another server leads the stream.
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(PublishAckWait))
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream at %s: %w", Redact(o.URL), err)
	}
	c := &Conn{NC: nc, JS: js, denials: d, closed: closed}
	// Fail early, with a clear message, when JetStream is off.
	actx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	err = c.Do(actx, func(ctx context.Context) error {
		_, err := js.AccountInfo(ctx)
		return err
	})
	switch {
	case errors.Is(err, ErrDenied):
		nc.Close()
		return nil, fmt.Errorf("JetStream at %s: %w", Redact(o.URL), err)
	case err != nil:
		nc.Close()
		return nil, fmt.Errorf("JetStream at %s: %w (is the server started with JetStream on?)", Redact(o.URL), err)
	}
	return c, nil
}

func isAuthText(s string) bool {
	return strings.Contains(strings.ToLower(s), "authorization violation")
}

// tlsHint says which TLS flag to look at for a failed handshake: the
// server's certificate did not verify, or the server hung up on a client
// without a certificate it trusts.
func tlsHint(s string) string {
	switch {
	case strings.Contains(s, "x509:"):
		return "does --tls-ca name the CA that signed the server's certificate?"
	case strings.Contains(s, "tls"):
		return "does the server want a client certificate, --tls-cert and --tls-key, signed by a CA it trusts?"
	}
	return ""
}
