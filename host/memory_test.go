package host

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/pinholectx/pinhole"
	"github.com/pinholectx/pinhole/internal/session"
)

// TestMemoryReserveSameAnswers: a large observe (above the module's
// one-step heap reservation threshold) and a describe answer the same
// bytes as the native core, with the reserving allocator and with
// wazero's copying default.
func TestMemoryReserveSameAnswers(t *testing.T) {
	benchRequests(t)
	if len(bench.observeA) <= 1<<20 {
		t.Fatalf("the observe request is %d bytes, too small to take the module's reservation path", len(bench.observeA))
	}
	testModule(t) // fills shared.cache
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		t.Fatal("build/pinhole.wasm is missing (run make wasm): " + err.Error())
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		on   bool
	}{{"reserve", true}, {"copy", false}} {
		t.Run(tc.name, func(t *testing.T) {
			mod, err := Compile(ctx, wasm, WithCompilationCache(shared.cache), WithMemoryReserve(tc.on))
			if err != nil {
				t.Fatal(err)
			}
			defer mod.Close(ctx)
			if got := mod.alloc != nil; got != (tc.on && reservingAllocator != nil) {
				t.Fatalf("allocator set: %v", got)
			}
			s, err := mod.NewSession(ctx)
			if err != nil {
				t.Fatal(err)
			}
			native := session.New()
			for i, req := range [][]byte{bench.load, bench.observeA, []byte(`{"op":"describe"}`), bench.observeB, []byte(`{"op":"describe","offset":9000}`)} {
				got, err := s.Call(ctx, req)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if want := native.Call(req); !bytes.Equal(got, want) {
					t.Fatalf("request %d: wazero answered %.300s, native %.300s", i, got, want)
				}
			}
			if size := s.mod.Memory().Size(); size < uint32(len(bench.observeA))*4 {
				t.Errorf("memory is %d bytes after a %d-byte observe", size, len(bench.observeA))
			}
		})
	}
}

// TestCopyingMemory: the fallback keeps what was written and hands out
// zeroed new pages.
func TestCopyingMemory(t *testing.T) {
	var m copyingMemory
	b := m.Reallocate(1 << 16)
	if len(b) != 1<<16 {
		t.Fatalf("len %d", len(b))
	}
	b[0], b[len(b)-1] = 7, 9
	b = m.Reallocate(1 << 18)
	if len(b) != 1<<18 || b[0] != 7 || b[1<<16-1] != 9 {
		t.Fatalf("len %d, kept %d %d", len(b), b[0], b[1<<16-1])
	}
	for _, x := range b[1<<16:] {
		if x != 0 {
			t.Fatal("new pages are not zero")
		}
	}
	m.Free()
	if m.b != nil {
		t.Fatal("Free kept the buffer")
	}
}

// TestOversizeRequestRefused: a request above pinhole.MaxRequestBytes is
// answered with state_too_large, not a trap; the module reserves nothing
// for a request it refuses unread.
func TestOversizeRequestRefused(t *testing.T) {
	s := newSession(t)
	req := make([]byte, pinhole.MaxRequestBytes+1)
	copy(req, `{"op":"describe"}`)
	out, err := s.Call(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"code":"state_too_large"`)) {
		t.Fatalf("answer %.200s", out)
	}
	if size := s.mod.Memory().Size(); size > 4*pinhole.MaxRequestBytes {
		t.Errorf("memory grew to %d bytes for a refused request", size)
	}
}
