// Package nats holds the nats-server configuration of a census cluster
// with least-privilege users, auth.conf; it has no code, only the test that
// runs a census under that configuration and checks what each user is
// refused. See docs/security.md.
package nats
