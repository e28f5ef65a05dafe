//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || s390x || loong64 || mips64 || mips64le || ppc64)

package host

import "testing"

// TestMappedMemory: growth never moves the memory, keeps what was written,
// hands out zeroed pages, and stops at the maximum; after Free nothing
// more is handed out.
func TestMappedMemory(t *testing.T) {
	for _, tc := range []struct {
		name     string
		max      uint64
		wantCopy bool
	}{
		{"64 MiB", 64 << 20, false},
		{"4 GiB, the wasm32 maximum", 1 << 32, false},
		{"no maximum", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lm := reservingAllocator.Allocate(1<<16, tc.max)
			defer lm.Free()
			if _, isCopy := lm.(*copyingMemory); isCopy != tc.wantCopy {
				t.Fatalf("got %T", lm)
			}
			if tc.wantCopy {
				return
			}
			a := lm.Reallocate(1 << 16)
			a[0], a[len(a)-1] = 1, 2
			b := lm.Reallocate(8 << 20)
			if len(b) != 8<<20 || &a[0] != &b[0] {
				t.Fatalf("grew to %d bytes, moved: %v", len(b), &a[0] != &b[0])
			}
			if b[0] != 1 || b[1<<16-1] != 2 || b[1<<16] != 0 || b[len(b)-1] != 0 {
				t.Fatal("contents not kept or new pages not zero")
			}
			if lm.Reallocate(tc.max+1<<16) != nil {
				t.Fatal("grew past the maximum")
			}
			lm.Free()
			if lm.Reallocate(1<<16) != nil {
				t.Fatal("handed out memory after Free")
			}
		})
	}
}
