package addrfold

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/wasmbin/wasmtest"
)

// TestFoldGoProgram builds a Go program for wasip1 (testdata/prog), folds
// it, and runs both under wazero: the same output, byte for byte, and the
// same exit code. The program panics and recovers, prints tracebacks, grows
// its stack, runs goroutines and the collector, so the runtime's reading of
// the code's structure (function indices as program counters, resumption
// after a call) is exercised on folded code.
func TestFoldGoProgram(t *testing.T) {
	in := wasmtest.Build(t, "./testdata/prog")
	out, st, err := Fold(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.Folded < 1000 {
		t.Fatalf("only %d additions folded in a Go program: %+v", st.Folded, st)
	}

	r := wasmtest.NewRuntime(t)
	want, wantCode := r.Run("original", in)
	got, gotCode := r.Run("folded", out)
	for _, line := range []string{"nil: runtime error: invalid memory address or nil pointer dereference",
		"divide: runtime error: integer divide by zero", "stack: main.main()", "deep: ", "goroutines: 1399860000", "gc ran: true"} {
		if !strings.Contains(want, line) {
			t.Errorf("the original program's output lacks %q:\n%s", line, want)
		}
	}
	if got != want || gotCode != wantCode || wantCode != 3 {
		t.Errorf("folded program: exit %d, output\n%s\nwant exit %d (3), output\n%s", gotCode, got, wantCode, want)
	}
}
