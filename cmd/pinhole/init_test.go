package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/cmd/internal/draft"
)

// TestInit: init prints the draft of the sample, or writes it with --out;
// the draft passes lint with the sample and describes the same natively
// and in the module.
func TestInit(t *testing.T) {
	sample, err := os.ReadFile(ordersState)
	if err != nil {
		t.Fatal(err)
	}
	want, e := draft.FromJSON(sample, draft.Options{Schema: draft.DefaultSchema})
	if e != nil {
		t.Fatal(e)
	}
	code, stdout, stderr := runCLI("init", "--state", ordersState)
	if code != 0 || stdout != string(want) || stderr != "" {
		t.Fatalf("init: exit %d, stderr %s, stdout differs from the draft:\n%.400s", code, stderr, stdout)
	}
	if _, stdout, _ := runCLI("init", "--state", ordersState, "--schema", ""); strings.Contains(stdout, "$schema") {
		t.Error(`--schema "" keeps the $schema`)
	}
	if _, stdout, _ := runCLI("init", "--state", ordersState, "--schema", "https://example.com/s.json"); !strings.Contains(stdout, `"$schema": "https://example.com/s.json"`) {
		t.Error("--schema is not the draft's $schema")
	}

	out := filepath.Join(t.TempDir(), "manifest.json")
	code, stdout, stderr = runCLI("init", "--state", ordersState, "--out", out)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "wrote "+out+": 1 collection, 25 fields, 5 state keys, page yes, feedback yes\n") {
		t.Fatalf("init --out: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != string(want) {
		t.Fatalf("--out wrote something else:\n%.400s", b)
	}
	// A file that exists may be a manifest edited since: kept, unless --force.
	if err := os.WriteFile(out, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI("init", "--state", ordersState, "--out", out)
	if b, _ := os.ReadFile(out); code != 2 || stdout != "" || !strings.Contains(stderr, "exists; pass --force to replace it") || string(b) != "edited" {
		t.Fatalf("init --out over a file: exit %d, file %.20q\nstderr: %s", code, b, stderr)
	}
	code, _, stderr = runCLI("init", "--state", ordersState, "--out", out, "--force")
	if b, _ := os.ReadFile(out); code != 0 || string(b) != string(want) {
		t.Fatalf("init --out --force: exit %d, stderr %s, file %.40q", code, stderr, b)
	}
	if code, stdout, _ := runCLI("lint", "--manifest", out, "--state", ordersState); code != 0 || stdout != "" {
		t.Fatalf("lint of the draft: exit %d\n%s", code, stdout)
	}
	args := []string{"describe", "--manifest", out, "--state", ordersState, "--key", key, "--limit", "50"}
	nCode, native, _ := runCLI(args...)
	wCode, wasm, stderr := runCLI(append(args, "--wasm", wasmFile)...)
	if nCode != 0 || wCode != 0 || native != wasm || !strings.Contains(native, `"recordsTotal":48`) {
		t.Fatalf("describe of the draft: native exit %d, wasm exit %d, stderr %s\nnative: %.300s\nwasm:   %.300s", nCode, wCode, stderr, native, wasm)
	}
}

// TestInitErrors: bad input is a usage error that names the fault.
func TestInitErrors(t *testing.T) {
	notJSON := writeFile(t, "bad.json", `{"token":"s3cr3t",`)
	big := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(draft.MaxSampleBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"init"}, "--state is required"},
		{[]string{"init", "--state", "no-such.json"}, "--state: open no-such.json"},
		{[]string{"init", "--state", notJSON}, "is not valid JSON"},
		{[]string{"init", "--state", big}, "the sample exceeds 8388608 bytes"},
		{[]string{"init", "--state", ordersState, "extra"}, `unexpected argument "extra"`},
		{[]string{"init", "--state", ordersState, "--out", filepath.Join(t.TempDir(), "no", "dir", "m.json")}, "--out: open"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.stderr) || !strings.Contains(stderr, "usage:") || strings.Contains(stderr, "s3cr3t") {
			t.Errorf("%v: exit %d, stdout %q, stderr %s", tc.args, code, stdout, stderr)
		}
	}
}
