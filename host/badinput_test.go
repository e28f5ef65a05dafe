package host

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBadInputNeverTraps sends the module, through wazero, inputs that break
// naive parsers. Each gets a clear error or a counted skip, the session stays
// alive, and a failed observe leaves the previous snapshot in force.
func TestBadInputNeverTraps(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	defer s.Close(ctx)
	m := string(readFile(t, "orders/manifest.json"))
	call := func(req string) []byte {
		t.Helper()
		out, err := s.Call(ctx, []byte(req))
		if err != nil {
			t.Fatalf("the module failed (%v) on a request of %d bytes", err, len(req))
		}
		return out
	}
	call(`{"op":"load","key":"conformance-key-0001","manifest":` + m + `}`)
	if out := call(`{"op":"observe","state":` + string(readFile(t, "orders/state.json")) + `}`); !bytes.Contains(out, []byte(`"snapshot":"s1"`)) {
		t.Fatalf("observe: %s", out)
	}
	before := call(`{"op":"describe","limit":2}`)
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	huge := `"` + strings.Repeat("x", 50<<20) + `"`
	cases := []struct {
		name, req, want string
	}{
		{"nesting 10,000 deep", `{"op":"observe","state":{"orders":` + deep + `}}`, `"code":"invalid_request"`},
		{"invalid UTF-8", "{\"op\":\"observe\",\"state\":{\"orders\":{\"filter\":\"\xff\xfe\"}}}", `"code":"invalid_request"`},
		{"duplicate keys", `{"op":"observe","state":{"orders":{"filter":"a","filter":"b"}}}`, `"code":"invalid_request"`},
		{"not an object", `{"op":"observe","state":"orders"}`, `"code":"invalid_state"`},
		{"bad patch", `{"op":"observe","patch":[{"op":"replace","path":"/orders/items/9999/status","value":"x"}]}`, `"code":"invalid_state"`},
		{"not JSON", `{"op":"observe","state":{`, `"code":"invalid_request"`},
	}
	for _, tc := range cases {
		if out := call(tc.req); !bytes.Contains(out, []byte(tc.want)) {
			t.Errorf("%s: %.200s", tc.name, out)
		}
		if after := call(`{"op":"describe","limit":2}`); !bytes.Equal(after, before) {
			t.Fatalf("%s: the previous snapshot is no longer in force", tc.name)
		}
	}
	// Accepted with a counted skip or a cut: a 50 MB string in a declared
	// field, 1e400, a non-array where a collection is declared, ids of the
	// wrong type.
	big := call(`{"op":"observe","state":{"session":{"tenant":"t"},"orders":{"items":[{"number":"SO-1","note":` + huge + `,"totals":{"grand":1e400}},{"number":true},{"number":1.5}]}}}`)
	if !bytes.Contains(big, []byte(`"recordsTotal":3,"skipped":2`)) {
		t.Errorf("50 MB field and bad ids: %.300s", big)
	}
	out := call(`{"op":"describe"}`)
	if !bytes.Contains(out, []byte(`"truncated":{"note":52428800}`)) || !bytes.Contains(out, []byte(`"total":1e400`)) || len(out) > 65536 {
		t.Errorf("describe after a 50 MB field: %d bytes, %.400s", len(out), out)
	}
	if out := call(`{"op":"observe","state":{"orders":{"items":{"number":"SO-1"}}}}`); !bytes.Contains(out, []byte(`expected an array`)) {
		t.Errorf("non-array collection: %s", out)
	}
}
