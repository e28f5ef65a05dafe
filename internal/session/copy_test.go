package session_test

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/pinholectx/pinhole/internal/patch"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// TestPatchCopyChainBounded: copy used to share the value it copied, so 20
// copies of copies in a 2 KB patch made a record's items a million values
// long, and a describe of the record rendered all of them (97 MB at 22
// copies, four times more with every two). The chain is now refused at the
// copy that passes the patch's bound, with the previous state in force,
// and the patch and the describe after it cost about as much as the patch
// is long.
func TestPatchCopyChainBounded(t *testing.T) {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	s := session.New()
	ok(t, s.Call([]byte(`{"op":"load","key":"`+key+`","manifest":`+string(m)+`}`)))
	ok(t, s.Call([]byte(`{"op":"observe","state":{"orders":{"items":[{"number":"SO-1","items":[1]}]}}}`)))
	describe := []byte(`{"op":"describe","record":["SO-1"]}`)
	before := s.Call(describe)
	for _, n := range []int{22, 40, 200} {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		req := copyChain(n)
		out := s.Call(req)
		desc := s.Call(describe)
		runtime.ReadMemStats(&m1)
		e := wire.DecodeError(out)
		// Each copy doubles the items, and the bound grows with the patch:
		// the copy refused comes a little later in a longer patch.
		var at int
		if e == nil || e.Code != wire.CodeInvalidState || !bytes.HasSuffix([]byte(e.Param), []byte("/from")) {
			t.Fatalf("%d copies: %.300s", n, out)
		}
		if _, err := fmt.Sscanf(e.Param, "/%d/from", &at); err != nil || at < 4 || at > 16 {
			t.Fatalf("%d copies: refused at %q", n, e.Param)
		}
		if !bytes.Equal(desc, before) {
			t.Fatalf("%d copies: the state changed: %.300s", n, desc)
		}
		if a, limit := m1.TotalAlloc-m0.TotalAlloc, uint64(100*len(req)+256<<10); a > limit {
			t.Errorf("%d copies (%d bytes): the patch and a describe allocated %d bytes, over %d", n, len(req), a, limit)
		} else {
			t.Logf("%d copies (%d bytes): the patch and a describe allocated %d bytes", n, len(req), a)
		}
	}
}

// A patch never builds a larger state than a full observe may send.
func TestPatchMaxSizeIsTheRequestBound(t *testing.T) {
	if patch.MaxSize != session.MaxRequestBytes {
		t.Fatalf("patch.MaxSize %d, session.MaxRequestBytes %d", patch.MaxSize, session.MaxRequestBytes)
	}
}
