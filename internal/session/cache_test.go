package session_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

// TestRepeatedDescribe: a describe repeated on an unchanged snapshot gives
// the same bytes and is audited each time; any change of snapshot or
// request is projected anew.
func TestRepeatedDescribe(t *testing.T) {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	must(t, err)
	st, err := os.ReadFile("../../testdata/orders/state.json")
	must(t, err)
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"` + key + `","manifest":` + string(m) + `}`))
	s.Call([]byte(`{"op":"observe","state":` + string(st) + `}`))
	s.Call([]byte(`{"op":"audit"}`))
	req := []byte(`{"op":"describe","limit":2}`)
	first := append([]byte(nil), s.Call(req)...)
	if again := s.Call(req); !bytes.Equal(again, first) {
		t.Fatal("a repeated describe differs")
	}
	if audit := string(s.Call([]byte(`{"op":"audit"}`))); strings.Count(audit, `"op":"describe","snapshot":"s1","records":2`) != 2 {
		t.Fatalf("both describes must be audited with their counts: %s", audit)
	}
	other := s.Call([]byte(`{"op":"describe","limit":3}`))
	if bytes.Equal(other, first) || !bytes.Contains(other, []byte(`"returned":3`)) {
		t.Fatal("another request must be projected anew")
	}
	s.Call([]byte(`{"op":"observe","patch":[{"op":"replace","path":"/orders/items/0/status","value":"Shipped"}]}`))
	changed := s.Call(req)
	if bytes.Equal(changed, first) || !bytes.Contains(changed, []byte(`"snapshot":"s2"`)) || !bytes.Contains(changed, []byte(`"status":"Shipped"`)) {
		t.Fatalf("a new snapshot must be projected anew: %.200s", changed)
	}
	// A new manifest: the old answer is not reused, even before observe.
	s.Call([]byte(`{"op":"load","key":"` + key + `","manifest":` + string(m) + `}`))
	if out := s.Call(req); !bytes.Contains(out, []byte(`"not_loaded"`)) {
		t.Fatalf("describe after a new load: %.200s", out)
	}
}
