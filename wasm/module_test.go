package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
)

// TestModuleDeps: the module links none of the packages that once came in
// through easyjson (jwriter's fmt, its buffer's net) or encoding/binary and
// syscall: each costs size, start-up time or WASI imports.
func TestModuleDeps(t *testing.T) {
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/pinholectx/pinhole/internal/session") {
		t.Fatalf("go list found no session package: %v", deps)
	}
	for _, bad := range []string{"fmt", "os", "net", "reflect", "time", "io/fs", "syscall", "encoding/binary", "encoding/json", "github.com/mailru/easyjson/jwriter"} {
		if slices.Contains(deps, bad) {
			t.Errorf("the module imports %s", bad)
		}
	}
}

// TestModuleImports: pinhole.wasm imports only the WASI functions of a bare
// Go reactor; the shim in js/src/wasi.js implements exactly these.
func TestModuleImports(t *testing.T) {
	bin, err := os.ReadFile(filepath.Join("..", "build", "pinhole.wasm"))
	if err != nil {
		t.Fatal("build/pinhole.wasm is missing (run make wasm): ", err)
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer r.Close(ctx)
	m, err := r.CompileModule(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, f := range m.ImportedFunctions() {
		mod, name, _ := f.Import()
		set[mod+"."+name] = true
	}
	var got []string
	for k := range set {
		got = append(got, strings.TrimPrefix(k, "wasi_snapshot_preview1."))
	}
	sort.Strings(got)
	want := "args_get args_sizes_get clock_time_get environ_get environ_sizes_get fd_write poll_oneoff proc_exit random_get sched_yield"
	if strings.Join(got, " ") != want {
		t.Errorf("imports %d functions:\n %s\nwant the bare reactor's ten:\n %s", len(got), strings.Join(got, " "), want)
	}
}
