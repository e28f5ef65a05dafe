package datamerge

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/wasmbin/wasmtest"
)

// TestMergeGoProgram builds a Go program for wasip1 (testdata/prog), merges
// its data, and checks under wazero that an instance of each starts with
// the same memory, byte for byte, and that both print the same and exit
// the same way.
func TestMergeGoProgram(t *testing.T) {
	in := wasmtest.Build(t, "./testdata/prog")
	out, st, err := Merge(in, MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	if st.SegmentsIn < 1000 || st.SegmentsOut > 100 {
		t.Fatalf("a Go program's data: %+v; want thousands of segments merged into a few", st)
	}

	r := wasmtest.NewRuntime(t)
	if a, b := r.Memory("original-memory", in), r.Memory("merged-memory", out); !bytes.Equal(a, b) {
		t.Fatalf("the merged module starts with other memory (%d and %d bytes)", len(a), len(b))
	}
	want, wantCode := r.Run("original", in)
	got, gotCode := r.Run("merged", out)
	if !strings.Contains(want, "words: [alpha beta gamma] [0 1 0 0 0 0 0 0 0 0 3735928559") ||
		!strings.Contains(want, "stack names main.main: true") {
		t.Errorf("the original program printed\n%s", want)
	}
	if got != want || gotCode != wantCode || wantCode != 3 {
		t.Errorf("merged program: exit %d, output\n%s\nwant exit %d (3), output\n%s", gotCode, got, wantCode, want)
	}
}
