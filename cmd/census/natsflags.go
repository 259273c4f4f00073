package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/store/s3store"
)

// natsFlags are the flags of every command that talks to a NATS server.
type natsFlags struct {
	url, user, creds, token, ca, cert, key string
}

// Secrets may come from the environment rather than the command line,
// where any user of the machine can read them (ps).
const (
	envPassword = "CENSUS_NATS_PASSWORD"
	envToken    = "CENSUS_NATS_TOKEN"
)

func (f *natsFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.url, "nats", "nats://127.0.0.1:4222", "NATS server URL(s), comma separated; user:password@ may be given in the URL")
	fl.StringVar(&f.user, "nats-user", "", "NATS user, its password in $"+envPassword)
	fl.StringVar(&f.creds, "nats-creds", "", "NATS credentials file (JWT and NKey seed)")
	fl.StringVar(&f.token, "nats-token", "", "NATS authentication token (better: $"+envToken+")")
	fl.StringVar(&f.ca, "tls-ca", "", "PEM file of the CA that signed the NATS server's certificate")
	fl.StringVar(&f.cert, "tls-cert", "", "PEM client certificate for NATS mutual TLS")
	fl.StringVar(&f.key, "tls-key", "", "PEM client key for NATS mutual TLS")
}

// connect connects, turning an unreachable server or refused credentials
// into an error that names the URL (without its secrets).
func (f *natsFlags) connect(ctx context.Context, name string) (*broker.Conn, error) {
	token := f.token
	if token == "" {
		token = os.Getenv(envToken)
	}
	var password string
	if f.user != "" {
		password = os.Getenv(envPassword)
	}
	c, err := broker.Connect(ctx, broker.ConnOptions{
		URL: f.url, Name: name, User: f.user, Password: password, Creds: f.creds, Token: token,
		TLSCA: f.ca, TLSCert: f.cert, TLSKey: f.key, Timeout: 5 * time.Second,
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// openStore opens a store by URL: s3://bucket/prefix, or a directory.
func openStore(ctx context.Context, url string) (store.Store, error) {
	if strings.HasPrefix(url, "s3://") {
		cfg, err := s3store.ConfigFromURL(url)
		if err != nil {
			return nil, err
		}
		return s3store.New(ctx, cfg)
	}
	if url == "" {
		return nil, errors.New("no store given")
	}
	return store.NewDir(strings.TrimPrefix(url, "file://"))
}

// storeURL is the store's URL as workers are told it: an absolute path for
// a directory.
func storeURL(url string) (string, error) {
	if strings.HasPrefix(url, "s3://") {
		return url, nil
	}
	abs, err := absPath(strings.TrimPrefix(url, "file://"))
	if err != nil {
		return "", fmt.Errorf("--store %s: %w", url, err)
	}
	return abs, nil
}

// openStoreFlag opens the store the flag --store names and returns it
// with its URL; a store it cannot open is bad usage.
func openStoreFlag(ctx context.Context, flag string) (string, store.Store, error) {
	url, err := storeURL(flag)
	if err != nil {
		return "", nil, usageError{err}
	}
	st, err := openStore(ctx, url)
	if err != nil {
		return "", nil, usagef("--store %s: %v", flag, err)
	}
	return url, st, nil
}
