package session_test

// Helpers of the red-team findings (redteam_*_test.go).

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

const rtKey = "redteam-key-000000000001"

// rtCall runs one request and returns the raw answer.
func rtCall(t *testing.T, s *session.Session, req string) string {
	t.Helper()
	return string(s.Call([]byte(req)))
}

// rtMust runs one request and fails on an error answer.
func rtMust(t *testing.T, s *session.Session, req string) string {
	t.Helper()
	out := rtCall(t, s, req)
	if strings.HasPrefix(out, `{"error"`) {
		t.Fatalf("%s\n-> %s", req, out)
	}
	return out
}

// rtSession loads manifest and observes state.
func rtSession(t *testing.T, manifest, state string) *session.Session {
	t.Helper()
	s := session.New()
	rtMust(t, s, `{"op":"load","key":"`+rtKey+`","manifest":`+manifest+`}`)
	rtMust(t, s, `{"op":"observe","state":`+state+`}`)
	return s
}

func rtJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out)
	}
	return m
}
