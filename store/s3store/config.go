package s3store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7/pkg/s3utils"
)

// DefaultEndpoint is the endpoint of a URL that names none: Amazon S3, over
// TLS.
const DefaultEndpoint = "s3.amazonaws.com"

// ConfigFromURL reads a store URL, s3://bucket/prefix, into a Config. The
// rest of the Config comes from the usual environment variables, and then
// from the URL's query parameters, which win:
//
//	endpoint      AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL, else s3.amazonaws.com;
//	              a value of the form http://host:port also sets Secure to false,
//	              https://host:port or a bare host:port sets it to true;
//	              query: ?endpoint=host:port (or ?endpoint=http://host:port)
//	secure        query: ?secure=false (any strconv.ParseBool value)
//	region        AWS_REGION, else AWS_DEFAULT_REGION; query: ?region=eu-west-1
//	access key    AWS_ACCESS_KEY_ID
//	secret key    AWS_SECRET_ACCESS_KEY
//	session token AWS_SESSION_TOKEN
//
// Command-line flags, when given, are meant to be set on the returned Config
// by the caller, over all of these. Credentials are never read from the URL:
// a URL with user information is refused. Errors name the URL with any user
// information and unknown query values replaced by REDACTED.
func ConfigFromURL(rawURL string) (Config, error) {
	bad := func(format string, args ...any) (Config, error) {
		return Config{}, fmt.Errorf("bad S3 URL %q: %s", redactURL(rawURL), fmt.Sprintf(format, args...))
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error would repeat the unredacted URL
		}
		return bad("%v", err)
	}
	switch {
	case u.Scheme != "s3":
		return bad("want s3://bucket/prefix")
	case u.User != nil:
		return bad("credentials do not belong in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	case u.Opaque != "" || u.Host == "":
		return bad("no bucket; want s3://bucket/prefix")
	case u.Fragment != "":
		return bad("unexpected fragment %q", u.Fragment)
	}
	if u.Port() != "" {
		return bad("bucket %q has a port; give the endpoint as ?endpoint=host:port", u.Host)
	}
	// The lenient check, as minio-go's: old buckets may have upper case.
	if err := s3utils.CheckValidBucketName(u.Host); err != nil {
		return bad("bucket %q: %v", u.Host, err)
	}
	cfg := Config{Bucket: u.Host, Endpoint: DefaultEndpoint, Secure: true}
	if p := strings.Trim(u.Path, "/"); p != "" {
		cfg.Prefix = path.Clean(p)
		if cfg.Prefix == "." || cfg.Prefix == ".." || strings.HasPrefix(cfg.Prefix, "../") {
			return bad("bad prefix %q", p)
		}
	}

	if err := cfg.fromEnv(); err != nil {
		return bad("%v", err)
	}

	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return bad("query: %v", err)
	}
	for k, v := range q {
		if len(v) != 1 {
			return bad("query parameter %q given %d times", k, len(v))
		}
		switch k {
		case "endpoint":
			if err := cfg.setEndpoint(v[0]); err != nil {
				return bad("endpoint %q: %v", v[0], err)
			}
		case "region", "secure":
		default:
			return bad("unknown query parameter %q (want endpoint, secure or region)", k)
		}
	}
	// secure= wins over the scheme of endpoint=, whatever their order.
	if v := q.Get("secure"); v != "" {
		secure, err := strconv.ParseBool(v)
		if err != nil {
			return bad("secure=%q is not true or false", v)
		}
		cfg.Secure = secure
	}
	if v := q.Get("region"); v != "" {
		cfg.Region = v
	}
	return cfg, nil
}

// fromEnv sets the endpoint, credentials and region from the environment.
func (c *Config) fromEnv() error {
	for _, v := range []string{"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"} {
		if e := os.Getenv(v); e != "" {
			if err := c.setEndpoint(e); err != nil {
				return fmt.Errorf("%s=%q: %v", v, e, err)
			}
			break
		}
	}
	c.AccessKey = os.Getenv("AWS_ACCESS_KEY_ID")
	c.SecretKey = os.Getenv("AWS_SECRET_ACCESS_KEY")
	c.SessionToken = os.Getenv("AWS_SESSION_TOKEN")
	c.Region = os.Getenv("AWS_REGION")
	if c.Region == "" {
		c.Region = os.Getenv("AWS_DEFAULT_REGION")
	}
	return nil
}

// setEndpoint sets Endpoint and Secure from http://host:port,
// https://host:port or a bare host:port (which means TLS).
func (c *Config) setEndpoint(e string) error {
	host, secure := e, true
	if scheme, rest, ok := strings.Cut(e, "://"); ok {
		switch strings.ToLower(scheme) {
		case "http":
			secure = false
		case "https":
		default:
			return fmt.Errorf("scheme %q is not http or https", scheme)
		}
		host = strings.TrimSuffix(rest, "/")
	}
	if host == "" || strings.ContainsAny(host, "/?#@ ") {
		return errors.New("want host[:port], http://host[:port] or https://host[:port]")
	}
	c.Endpoint, c.Secure = host, secure
	return nil
}

// redactURL hides what may be secret in a URL that is about to be printed:
// the user information, and the values of query parameters other than
// endpoint, secure and region.
func redactURL(raw string) string {
	if i := strings.LastIndex(raw, "@"); i >= 0 {
		start := 0
		if j := strings.Index(raw, "://"); j >= 0 && j < i {
			start = j + len("://")
		}
		raw = raw[:start] + "REDACTED" + raw[i:]
	}
	base, query, ok := strings.Cut(raw, "?")
	if !ok {
		return raw
	}
	var parts []string
	for _, kv := range strings.Split(query, "&") {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "endpoint", "secure", "region", "":
			parts = append(parts, kv)
		default:
			parts = append(parts, k+"=REDACTED")
		}
	}
	return base + "?" + strings.Join(parts, "&")
}
