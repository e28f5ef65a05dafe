package main

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/wire"
)

// The environment variables (Worker vars and secrets) the Worker reads.
const (
	EnvKey            = "PINHOLE_KEY"             // session key for /v1/describe (a secret)
	EnvAllowedOrigins = "PINHOLE_ALLOWED_ORIGINS" // comma-separated exact origins
	EnvMaxBodyBytes   = "PINHOLE_MAX_BODY_BYTES"  // request body bound in bytes
	EnvManifests      = "PINHOLE_MANIFESTS"       // JSON object: manifest id → manifest
)

// maxBodyCeiling is the largest body bound accepted: Cloudflare's request
// body limit on the Free and Pro plans.
const maxBodyCeiling = 100 << 20

// ConfigFromEnv reads the Worker's configuration through getenv, which
// returns "" for an unset variable. Errors name the variable, never its
// value.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	var c Config
	if k := getenv(EnvKey); k != "" {
		if len(k) < 16 || len(k) > 256 {
			return c, configError(EnvKey + " must be 16 to 256 bytes")
		}
		c.Key = k
	}
	if s := getenv(EnvMaxBodyBytes); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 || n > maxBodyCeiling {
			return c, configError(EnvMaxBodyBytes + " must be an integer from 1 to " + strconv.Itoa(maxBodyCeiling))
		}
		c.MaxBodyBytes = n
	}
	for _, o := range strings.FieldsFunc(getenv(EnvAllowedOrigins), func(r rune) bool { return r == ',' || r == ' ' }) {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return c, configError(EnvAllowedOrigins + " must list exact origins such as https://app.example.com (no wildcard, path or trailing slash)")
		}
		c.AllowedOrigins = append(c.AllowedOrigins, o)
	}
	c.Manifests = getenv(EnvManifests)
	return c, nil
}

// handlerFromEnv is the handler both mains serve: the Worker's handler, or,
// when the configuration is invalid, one that answers every request with a
// 500 naming the faulty setting.
func handlerFromEnv(getenv func(string) string) http.Handler {
	cfg, err := ConfigFromEnv(getenv)
	if err != nil {
		msg := "the Worker is misconfigured: " + err.Error()
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, http.StatusInternalServerError, wire.CodeInternal, "", msg)
		})
	}
	return NewHandler(cfg)
}
