package s3store

import (
	"strings"
	"testing"
)

var awsEnv = []string{
	"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3",
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
	"AWS_REGION", "AWS_DEFAULT_REGION",
}

// clearEnv empties the variables ConfigFromURL reads, for this test only.
func clearEnv(t *testing.T) {
	for _, v := range awsEnv {
		t.Setenv(v, "")
	}
}

func TestConfigFromURL(t *testing.T) {
	aws := Config{Endpoint: DefaultEndpoint, Secure: true}
	with := func(c Config, f func(*Config)) Config { f(&c); return c }
	for _, tc := range []struct {
		name string
		url  string
		env  map[string]string
		want Config
	}{
		{"bucket only", "s3://census", nil,
			with(aws, func(c *Config) { c.Bucket = "census" })},
		{"prefix", "s3://census/runs/r1", nil,
			with(aws, func(c *Config) { c.Bucket, c.Prefix = "census", "runs/r1" })},
		{"prefix slashes trimmed and cleaned", "s3://census//runs//r1/./", nil,
			with(aws, func(c *Config) { c.Bucket, c.Prefix = "census", "runs/r1" })},
		{"credentials and region from env", "s3://bkt/p", map[string]string{
			"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRET", "AWS_SESSION_TOKEN": "TOKEN",
			"AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "us-west-2",
		}, with(aws, func(c *Config) {
			c.Bucket, c.Prefix = "bkt", "p"
			c.AccessKey, c.SecretKey, c.SessionToken, c.Region = "AKID", "SECRET", "TOKEN", "eu-west-1"
		})},
		{"AWS_DEFAULT_REGION", "s3://bkt", map[string]string{"AWS_DEFAULT_REGION": "us-west-2"},
			with(aws, func(c *Config) { c.Bucket, c.Region = "bkt", "us-west-2" })},
		{"http endpoint from env", "s3://bkt", map[string]string{"AWS_ENDPOINT_URL": "http://localhost:9000"},
			Config{Bucket: "bkt", Endpoint: "localhost:9000", Secure: false}},
		{"https endpoint from env", "s3://bkt", map[string]string{"AWS_ENDPOINT_URL": "https://minio.example.org/"},
			Config{Bucket: "bkt", Endpoint: "minio.example.org", Secure: true}},
		{"bare endpoint from env means TLS", "s3://bkt", map[string]string{"AWS_ENDPOINT_URL": "minio:9000"},
			Config{Bucket: "bkt", Endpoint: "minio:9000", Secure: true}},
		{"AWS_ENDPOINT_URL_S3 wins", "s3://bkt", map[string]string{
			"AWS_ENDPOINT_URL": "https://general:1", "AWS_ENDPOINT_URL_S3": "http://s3only:2",
		}, Config{Bucket: "bkt", Endpoint: "s3only:2", Secure: false}},
		{"query overrides env", "s3://bkt/p?endpoint=127.0.0.1:9000&secure=false&region=ap-south-1", map[string]string{
			"AWS_ENDPOINT_URL": "https://env:1", "AWS_REGION": "eu-west-1",
		}, Config{Bucket: "bkt", Prefix: "p", Endpoint: "127.0.0.1:9000", Secure: false, Region: "ap-south-1"}},
		{"query endpoint with scheme", "s3://bkt?endpoint=http://h:1", nil,
			Config{Bucket: "bkt", Endpoint: "h:1", Secure: false}},
		{"secure wins over the endpoint's scheme", "s3://bkt?secure=true&endpoint=http://h:1", nil,
			Config{Bucket: "bkt", Endpoint: "h:1", Secure: true}},
		{"secure=0", "s3://bkt?secure=0", nil,
			Config{Bucket: "bkt", Endpoint: DefaultEndpoint, Secure: false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			got, err := ConfigFromURL(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ConfigFromURL(%q)\n got %+v\nwant %+v", tc.url, got, tc.want)
			}
			if s := got.String(); strings.Contains(s, "SECRET") || strings.Contains(s, "TOKEN") {
				t.Errorf("String() = %q shows credentials", s)
			}
		})
	}
}

func TestConfigFromURLErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		url  string
		env  map[string]string
		want string // in the error, after the URL
	}{
		{"not s3", "https://bucket/x", nil, "want s3://bucket/prefix"},
		{"no bucket", "s3:///prefix", nil, "no bucket"},
		{"opaque", "s3:bucket", nil, "no bucket"},
		{"bad bucket", "s3://-bucket/x", nil, `bucket "-bucket"`},
		{"short bucket", "s3://ab/x", nil, `bucket "ab"`},
		{"bucket with port", "s3://bucket:9000/x", nil, `bucket "bucket:9000" has a port`},
		{"credentials in URL", "s3://AKID:s3cr3t@bucket/x", nil, "credentials do not belong in the URL"},
		{"parse error", "s3://bkt/%zz", nil, "invalid URL escape"},
		{"prefix escapes", "s3://bkt/../x", nil, "bad prefix"},
		{"fragment", "s3://bkt/x#frag", nil, "fragment"},
		{"unknown parameter", "s3://bkt?secret_key=s3cr3t", nil, `unknown query parameter "secret_key"`},
		{"repeated parameter", "s3://bkt?region=a&region=b", nil, `"region" given 2 times`},
		{"bad secure", "s3://bkt?secure=maybe", nil, `secure="maybe"`},
		{"bad query endpoint", "s3://bkt?endpoint=ftp://h", nil, `endpoint "ftp://h": scheme "ftp"`},
		{"endpoint with path", "s3://bkt?endpoint=http://h/x", nil, `endpoint "http://h/x"`},
		{"empty endpoint", "s3://bkt?endpoint=", nil, `endpoint ""`},
		{"bad env endpoint", "s3://bkt", map[string]string{"AWS_ENDPOINT_URL": "ftp://h"}, `AWS_ENDPOINT_URL="ftp://h"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			t.Setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := ConfigFromURL(tc.url)
			if err == nil {
				t.Fatalf("ConfigFromURL(%q) succeeded", tc.url)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "bad S3 URL ") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want `bad S3 URL <url>: ...%s...`", msg, tc.want)
			}
			if strings.Contains(msg, "s3cr3t") || strings.Contains(msg, "AKID") {
				t.Errorf("error %q shows a secret", msg)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"s3://b/p":                             "s3://b/p",
		"s3://AKID:SECRET@b/p":                 "s3://REDACTED@b/p",
		"s3://b/p?endpoint=h:1&key=SECRET":     "s3://b/p?endpoint=h:1&key=REDACTED",
		"s3://b/p?region=x&secure=false":       "s3://b/p?region=x&secure=false",
		"AKID:SECRET@b":                        "REDACTED@b",
		"s3://a:b@c?endpoint=h&token=SECRET&x": "s3://REDACTED@c?endpoint=h&token=REDACTED&x=REDACTED",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
