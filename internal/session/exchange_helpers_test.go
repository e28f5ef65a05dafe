package session_test

// Helpers of the tests that exchange raw requests and answers with a session.

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

const exchangeKey = "exchange-key-0000000001"

// rawCall runs one request and returns the raw answer.
func rawCall(t *testing.T, s *session.Session, req string) string {
	t.Helper()
	return string(s.Call([]byte(req)))
}

// mustRaw runs one request and fails on an error answer.
func mustRaw(t *testing.T, s *session.Session, req string) string {
	t.Helper()
	out := rawCall(t, s, req)
	if strings.HasPrefix(out, `{"error"`) {
		t.Fatalf("%s\n-> %s", req, out)
	}
	return out
}

// sessionWith loads manifest and observes state.
func sessionWith(t *testing.T, manifest, state string) *session.Session {
	t.Helper()
	s := session.New()
	mustRaw(t, s, `{"op":"load","key":"`+exchangeKey+`","manifest":`+manifest+`}`)
	mustRaw(t, s, `{"op":"observe","state":`+state+`}`)
	return s
}
