package addrfold

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// TestFoldGoProgram builds a Go program for wasip1 (testdata/prog), folds
// it, and runs both under wazero: the same output, byte for byte, and the
// same exit code. The program panics and recovers, prints tracebacks, grows
// its stack, runs goroutines and the collector, so the runtime's reading of
// the code's structure (function indices as program counters, resumption
// after a call) is exercised on folded code.
func TestFoldGoProgram(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "prog.wasm")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./testdata/prog")
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := Fold(in)
	if err != nil {
		t.Fatal(err)
	}
	if st.Folded < 1000 {
		t.Fatalf("only %d additions folded in a Go program: %+v", st.Folded, st)
	}

	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	run := func(name string, module []byte) (string, uint32) {
		var stdout, stderr bytes.Buffer
		_, err := r.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithName(name).WithStdout(&stdout).WithStderr(&stderr))
		var exit *sys.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("%s: %v, want an exit\n%s", name, err, stderr.String())
		}
		return stdout.String(), exit.ExitCode()
	}
	want, wantCode := run("original", in)
	got, gotCode := run("folded", out)
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
