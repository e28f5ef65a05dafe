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
	EnvKey            = "PINHOLE_KEY"                // session key for /v1/describe (a secret)
	EnvAllowedOrigins = "PINHOLE_ALLOWED_ORIGINS"    // comma-separated exact origins
	EnvMaxBodyBytes   = "PINHOLE_MAX_BODY_BYTES"     // request body bound in bytes
	EnvMaxResponse    = "PINHOLE_MAX_RESPONSE_BYTES" // answer bound in bytes, a batch's answers together
	EnvMaxBatch       = "PINHOLE_MAX_BATCH"          // requests in one /v1/session batch
	EnvManifests      = "PINHOLE_MANIFESTS"          // JSON object: manifest id → manifest
	// EnvInstance set to "request" gives every request a Go instance of
	// its own (entry.mjs); unset, one instance serves the isolate.
	EnvInstance = "PINHOLE_INSTANCE"
	// EnvTestFaults set to "1" enables the fault-injection endpoints
	// under /__test/ in a Worker built with -tags pinhole_faults
	// (fault_js.go; the workerd tests' build). The Worker that ships has
	// no such endpoints, whatever this is set to.
	EnvTestFaults = "PINHOLE_TEST_FAULTS"
)

// Ceilings and floors of the settings. A Workers isolate has 128 MB and a
// parsed JSON value takes many times the memory of its text, so the body
// bound stops well below Cloudflare's 100 MB request limit (BENCHMARKS.md
// has the measured memory per body size). The response bound leaves room
// for any error envelope.
const (
	maxBodyCeiling     = 4 << 20
	minResponseBytes   = 64 << 10
	maxResponseCeiling = 32 << 20
	maxBatchCeiling    = 10000
)

// intSetting reads an integer setting from min to max; "" leaves *dst.
func intSetting(getenv func(string) string, name string, min, max int64, dst *int64) error {
	s := getenv(name)
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < min || n > max {
		return configError(name + " must be an integer from " + strconv.FormatInt(min, 10) + " to " + strconv.FormatInt(max, 10))
	}
	*dst = n
	return nil
}

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
	if err := intSetting(getenv, EnvMaxBodyBytes, 1, maxBodyCeiling, &c.MaxBodyBytes); err != nil {
		return c, err
	}
	if err := intSetting(getenv, EnvMaxResponse, minResponseBytes, maxResponseCeiling, &c.MaxResponseBytes); err != nil {
		return c, err
	}
	var batch int64
	if err := intSetting(getenv, EnvMaxBatch, 1, maxBatchCeiling, &batch); err != nil {
		return c, err
	}
	c.MaxBatch = int(batch)
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
	return handlerFor(ConfigFromEnv(getenv))
}

// handlerFor is the handler for a configuration ConfigFromEnv returned.
func handlerFor(cfg Config, err error) http.Handler {
	if err != nil {
		msg := "the Worker is misconfigured: " + err.Error()
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, http.StatusInternalServerError, wire.CodeInternal, "", msg)
		})
	}
	return NewHandler(cfg)
}
