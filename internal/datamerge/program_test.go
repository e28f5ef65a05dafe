package datamerge

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// TestMergeGoProgram builds a Go program for wasip1 (testdata/prog), merges
// its data, and checks under wazero that an instance of each starts with
// the same memory, byte for byte, and that both print the same and exit
// the same way.
func TestMergeGoProgram(t *testing.T) {
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
	out, st, err := Merge(in, MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	if st.SegmentsIn < 1000 || st.SegmentsOut > 100 {
		t.Fatalf("a Go program's data: %+v; want thousands of segments merged into a few", st)
	}

	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	memory := func(name string, module []byte) []byte {
		m, err := r.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithName(name).WithStartFunctions())
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close(ctx)
		mem := m.ExportedMemory("memory")
		if mem == nil {
			t.Fatalf("%s exports no memory", name)
		}
		b, _ := mem.Read(0, mem.Size())
		return bytes.Clone(b)
	}
	if a, b := memory("original-memory", in), memory("merged-memory", out); !bytes.Equal(a, b) {
		t.Fatalf("the merged module starts with other memory (%d and %d bytes)", len(a), len(b))
	}

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
	got, gotCode := run("merged", out)
	if !bytes.Contains([]byte(want), []byte("words: [alpha beta gamma] [0 1 0 0 0 0 0 0 0 0 3735928559")) ||
		!bytes.Contains([]byte(want), []byte("stack names main.main: true")) {
		t.Errorf("the original program printed\n%s", want)
	}
	if got != want || gotCode != wantCode || wantCode != 3 {
		t.Errorf("merged program: exit %d, output\n%s\nwant exit %d (3), output\n%s", gotCode, got, wantCode, want)
	}
}
