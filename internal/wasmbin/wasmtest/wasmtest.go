// Package wasmtest builds Go programs for wasip1 and runs them under
// wazero, for the tests of the passes that rewrite a built module
// (addrfold, datamerge): each compares a program before and after its pass.
package wasmtest

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

// Build compiles the Go package at dir (a path the go command reads, such
// as "./testdata/prog") for wasip1 and returns the module.
func Build(t testing.TB, dir string) []byte {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prog.wasm")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, dir)
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	module, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return module
}

// Runtime is a wazero runtime with WASI, closed when the test ends.
type Runtime struct {
	t   testing.TB
	ctx context.Context
	r   wazero.Runtime
}

// NewRuntime returns a Runtime for t.
func NewRuntime(t testing.TB) *Runtime {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	return &Runtime{t: t, ctx: ctx, r: r}
}

// Run instantiates module under name, which runs its main, and returns
// what it printed and its exit code; the test fails unless it exits.
func (r *Runtime) Run(name string, module []byte) (string, uint32) {
	r.t.Helper()
	var stdout, stderr bytes.Buffer
	_, err := r.r.InstantiateWithConfig(r.ctx, module, wazero.NewModuleConfig().WithName(name).WithStdout(&stdout).WithStderr(&stderr))
	var exit *sys.ExitError
	if !errors.As(err, &exit) {
		r.t.Fatalf("%s: %v, want an exit\n%s", name, err, stderr.String())
	}
	return stdout.String(), exit.ExitCode()
}

// Memory instantiates module under name without running anything and
// returns a copy of the memory it starts with.
func (r *Runtime) Memory(name string, module []byte) []byte {
	r.t.Helper()
	m, err := r.r.InstantiateWithConfig(r.ctx, module, wazero.NewModuleConfig().WithName(name).WithStartFunctions())
	if err != nil {
		r.t.Fatal(err)
	}
	defer m.Close(r.ctx)
	mem := m.ExportedMemory("memory")
	if mem == nil {
		r.t.Fatalf("%s exports no memory", name)
	}
	b, _ := mem.Read(0, mem.Size())
	return bytes.Clone(b)
}
