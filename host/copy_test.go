package host

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestPatchCopyChainRefused: through wazero, a chain of copies of copies
// in one patch (each copy doubles the record's items) is refused as
// invalid_state at the copy that passes the patch's bound, the previous
// state stays in force, and a describe after it answers at once. When copy
// shared the value, the patch was taken and the describe rendered 2^22
// values.
func TestPatchCopyChainRefused(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	defer s.Close(ctx)
	m := readFile(t, "orders/manifest.json")
	if out, err := s.Load(ctx, m, "conformance-key-0001"); err != nil || !bytes.Contains(out, []byte(`"loaded":true`)) {
		t.Fatalf("load: %v %.200s", err, out)
	}
	if out, err := s.Observe(ctx, []byte(`{"session":{"tenant":"t"},"orders":{"items":[{"number":"SO-1","items":[1]}]}}`)); err != nil || !bytes.Contains(out, []byte(`"snapshot":"s1"`)) {
		t.Fatalf("observe: %v %.200s", err, out)
	}
	describe := []byte(`{"record":["SO-1"]}`)
	before, err := s.Describe(ctx, describe)
	if err != nil {
		t.Fatal(err)
	}
	chain := "[" + strings.TrimSuffix(strings.Repeat(`{"op":"copy","from":"/orders/items/0/items","path":"/orders/items/0/items/-"},`, 22), ",") + "]"
	start := time.Now()
	out, err := s.ObservePatch(ctx, []byte(chain))
	// The answer is the error response, also returned as the error.
	if err == nil || !bytes.Contains(out, []byte(`"code":"invalid_state"`)) || !bytes.Contains(out, []byte(`/from"}}`)) {
		t.Fatalf("22 copies of copies: %v %.300s", err, out)
	}
	after, err := s.Describe(ctx, describe)
	if err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the previous state is no longer in force: %v %.300s", err, after)
	}
	t.Logf("refused patch and describe under wazero: %v", time.Since(start))
	// One copy per patch fits: the state may double.
	out, err = s.ObservePatch(ctx, []byte(`[{"op":"copy","from":"/orders/items/0/items","path":"/orders/items/0/items/-"}]`))
	if err != nil || !bytes.Contains(out, []byte(`"snapshot":"s2","changed":true`)) {
		t.Fatalf("one copy: %v %.300s", err, out)
	}
	if d, err := s.Describe(ctx, describe); err != nil || !bytes.Contains(d, []byte(`"items":[1,[1]]`)) {
		t.Fatalf("describe after one copy: %v %.300s", err, d)
	}
}
