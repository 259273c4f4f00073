package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/census-cgt/census/schema"
)

// The access-control tests run census against NATS servers that demand
// TLS or credentials, as docs/security.md sets them up.

// authConf is the committed least-privilege configuration.
var authConf = filepath.Join("..", "..", "deploy", "nats", "auth.conf")

// authEnv gives every user of auth.conf the password pw, for the server.
func authEnv(pw string) []string {
	return []string{"CENSUS_COORDINATOR_PASSWORD=" + pw, "CENSUS_WORKER_PASSWORD=" + pw, "CENSUS_STATUS_PASSWORD=" + pw}
}

// startAuthServer starts `census server --config auth.conf` with every
// user's password pw.
func startAuthServer(t *testing.T, pw string) *natsProc {
	t.Helper()
	for _, kv := range authEnv(pw) {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	return startServer(t, "--config", authConf)
}

// pki is a CA and the server and client certificates it signed, as PEM
// files in a directory.
type pki struct {
	ca, serverCert, serverKey, clientCert, clientKey string
}

func newPKI(t *testing.T) pki {
	t.Helper()
	dir := t.TempDir()
	caKey := newKey(t)
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "census test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	p := pki{ca: filepath.Join(dir, "ca.pem")}
	writePEM(t, p.ca, "CERTIFICATE", caDER)
	issue := func(name string, serial int64, usage x509.ExtKeyUsage) (string, string) {
		key := newKey(t)
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		cert, keyFile := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
		writePEM(t, cert, "CERTIFICATE", der)
		writePEM(t, keyFile, "EC PRIVATE KEY", keyDER)
		return cert, keyFile
	}
	p.serverCert, p.serverKey = issue("server", 2, x509.ExtKeyUsageServerAuth)
	p.clientCert, p.clientKey = issue("client", 3, x509.ExtKeyUsageClientAuth)
	return p
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func writePEM(t *testing.T, path, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestTLS runs a census over mutual TLS with the --tls-ca, --tls-cert and
// --tls-key flags, and checks that a client that cannot complete the
// handshake is refused with a message naming the URL.
func TestTLS(t *testing.T) {
	p := newPKI(t)
	conf := filepath.Join(t.TempDir(), "tls.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, "tls {\n  cert_file: %q\n  key_file: %q\n  ca_file: %q\n  verify: true\n  timeout: 5\n}\n",
		p.serverCert, p.serverKey, p.ca), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, "--config", conf)
	url := "tls://" + strings.TrimPrefix(srv.url, "nats://")
	tlsFlags := []string{"--nats", url, "--tls-ca", p.ca, "--tls-cert", p.clientCert, "--tls-key", p.clientKey}

	startCensus(t, "worker", nil, append([]string{"worker", "--jobs", "2", noMetrics}, tlsFlags...)...)
	out := t.TempDir()
	_, stderr, code := censusWithin(t, 60*time.Second, nil, append([]string{"coordinator", "--store", t.TempDir(),
		"domineering", "4x4", "--out", out, "--quiet", noMetrics}, tlsFlags...)...)
	if code != 0 {
		t.Fatalf("census coordinator over TLS: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "domineering-4x4", schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var s schema.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	// census-spec.md: Domineering 4x4.
	if s.Positions != 5700 || s.Moves != 32464 {
		t.Errorf("positions, moves = %d, %d; want 5700, 32464", s.Positions, s.Moves)
	}
	if stdout, stderr, code := census(t, append([]string{"status"}, tlsFlags...)...); code != 0 || !strings.Contains(stdout, "domineering-4x4") {
		t.Errorf("census status over TLS: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	tests := []struct {
		name  string
		flags []string
		// names is what the message must say besides the URL.
		names string
	}{
		{"no CA", []string{"--nats", url}, "certificate"},
		{"no CA, nats scheme", []string{"--nats", srv.url}, "certificate"},
		{"other CA", []string{"--nats", url, "--tls-ca", newPKI(t).ca, "--tls-cert", p.clientCert, "--tls-key", p.clientKey}, "certificate"},
		{"no client certificate", []string{"--nats", url, "--tls-ca", p.ca}, "--tls-cert"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			began := time.Now()
			stdout, stderr, code := censusWithin(t, 20*time.Second, nil, append([]string{"worker", noMetrics}, tc.flags...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			took := time.Since(began)
			t.Logf("exit %d after %v: %s", code, took.Round(time.Millisecond), strings.TrimSpace(stderr))
			if took > 10*time.Second {
				t.Errorf("refusal took %v", took)
			}
			host := strings.TrimPrefix(srv.url, "nats://")
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(stderr, host) || !strings.Contains(stderr, tc.names) {
				t.Errorf("stderr %q: want one line naming %s and saying %q", stderr, host, tc.names)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// TestRefusedCredentials runs `census worker` with wrong credentials of
// every kind against a server that wants the users of auth.conf: each
// exits at once with code 2 and one line that says NATS refused the
// credentials, names the server and gives away no secret.
func TestRefusedCredentials(t *testing.T) {
	const password = "right-PW-51c8"
	const wrong = "wr0ng-PW-e2d7"
	srv := startAuthServer(t, password)
	host := strings.TrimPrefix(srv.url, "nats://")
	// The same server by another name, for a list of URLs.
	local := strings.Replace(host, "127.0.0.1", "localhost", 1)
	creds := filepath.Join(t.TempDir(), "stranger.creds")
	if err := os.WriteFile(creds, strangerCreds(t), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.creds")

	// The right password first, through each channel: the server takes
	// it, so the refusals below are the credentials' fault.
	for _, ok := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"status", "--nats", "nats://status:" + password + "@" + host}},
		{[]string{envPassword + "=" + password}, []string{"status", "--nats", srv.url, "--nats-user", "status"}},
	} {
		if _, stderr, code := censusWithin(t, 20*time.Second, ok.env, ok.args...); code != 0 {
			t.Fatalf("census %v with the right password: exit %d: %s", ok.args, code, stderr)
		}
	}

	tests := []struct {
		name string
		env  []string
		args []string
		// names is what the one-line error must say.
		names []string
	}{
		{"wrong password in URL", nil, []string{"--nats", "nats://worker:" + wrong + "@" + host},
			[]string{"refused", "nats://worker:redacted@" + host}},
		{"wrong password in a list of URLs", nil, []string{"--nats", "nats://worker:" + wrong + "@" + host + ",nats://worker:" + wrong + "@" + local},
			[]string{"refused", "nats://worker:redacted@" + host + ",nats://worker:redacted@" + local}},
		{"wrong password in the environment", []string{envPassword + "=" + wrong}, []string{"--nats", srv.url, "--nats-user", "worker"},
			[]string{"refused", srv.url}},
		{"no password", nil, []string{"--nats", srv.url, "--nats-user", "worker"},
			[]string{"refused", srv.url}},
		{"unknown user", nil, []string{"--nats", "nats://nobody:" + password + "@" + host},
			[]string{"refused", "nats://nobody:redacted@" + host}},
		{"token", nil, []string{"--nats", srv.url, "--nats-token", wrong},
			[]string{"refused", srv.url}},
		{"token in the environment", []string{envToken + "=" + wrong}, []string{"--nats", srv.url},
			[]string{"refused", srv.url}},
		{"token in URL", nil, []string{"--nats", "nats://" + wrong + "@" + host},
			[]string{"refused", "nats://redacted@" + host}},
		{"creds file of a stranger", nil, []string{"--nats", srv.url, "--nats-creds", creds},
			[]string{"refused", srv.url}},
		{"missing creds file", nil, []string{"--nats", srv.url, "--nats-creds", missing},
			[]string{missing, srv.url}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"worker", noMetrics}, tc.args...)
			began := time.Now()
			stdout, stderr, code := censusWithin(t, 20*time.Second, tc.env, args...)
			took := time.Since(began)
			t.Logf("exit %d after %v: %s", code, took.Round(time.Millisecond), strings.TrimSpace(stderr))
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			// No reconnect loop: a refusal is final.
			if took > 10*time.Second {
				t.Errorf("refusal took %v", took)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 {
				t.Errorf("stderr %q: want one line", stderr)
			}
			for _, n := range tc.names {
				if !strings.Contains(stderr, n) {
					t.Errorf("stderr %q does not name %q", stderr, n)
				}
			}
			for _, secret := range []string{wrong, password, "SUA"} {
				if strings.Contains(stdout+stderr, secret) {
					t.Errorf("output %q gives away %q", stdout+stderr, secret)
				}
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// strangerCreds is a well-formed credentials file (a user JWT and its NKey
// seed) of an account no server of the test knows.
func strangerCreds(t *testing.T) []byte {
	t.Helper()
	account, err := nkeys.CreateAccount()
	if err != nil {
		t.Fatal(err)
	}
	user, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := user.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.NewUserClaims(pub)
	claims.Name = "stranger"
	token, err := claims.Encode(account)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := user.Seed()
	if err != nil {
		t.Fatal(err)
	}
	creds, err := jwt.FormatUserConfig(token, seed)
	if err != nil {
		t.Fatal(err)
	}
	return creds
}
