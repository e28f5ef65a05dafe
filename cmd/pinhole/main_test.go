package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

const (
	ordersManifest = "../../testdata/orders/manifest.json"
	ordersState    = "../../testdata/orders/state.json"
	key            = "cli-test-key-0123456789"
)

// wasmFile is the module `make wasm` builds; `make test` builds it first.
var wasmFile = filepath.Join("..", "..", "build", "pinhole.wasm")

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// nativeDescribe is what the core itself answers for load+observe+describe.
func nativeDescribe(t *testing.T, describeReq string) string {
	t.Helper()
	man, err := os.ReadFile(ordersManifest)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.ReadFile(ordersState)
	if err != nil {
		t.Fatal(err)
	}
	s := session.New()
	s.Call([]byte(`{"op":"load","manifest":` + string(man) + `,"key":"` + key + `"}`))
	s.Call([]byte(`{"op":"observe","state":` + string(st) + `}`))
	return string(s.Call([]byte(describeReq))) + "\n"
}

// A manifest that declares risky things plainly.
const riskyManifest = `{"pinhole":1,
  "regions":[{"id":"people","description":"People in the address book"},{"id":"side"}],
  "collections":[{"region":"people","from":"/people","id":"/id","fields":{
    "name":{"from":"/name"},
    "email":{"from":"/email"},
    "contact":{"from":"/contact"},
    "note":{"from":"/note"},
    "apiKey":{"from":"/key","expose":"mask"}}}],
  "state":{"session":"/session/token","filter":"/filter"},
  "capabilities":[{"name":"p.call","description":"Call","scope":"record","region":"people"},
                  {"name":"p.mail","description":"Send one e-mail to the person","scope":"record","region":"people"}]}`

const riskyState = `{"filter":"all","session":{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl"},
  "people":[
    {"id":"1","name":"Ada","email":"ada@example.com","contact":"+44 20 7946 0000","note":"card 4242 4242 4242 4242 on file"},
    {"id":"2","name":"Lin","email":"lin@example.org","contact":"ask at desk","note":"order SO-1001 shipped 2026-10-01"},
    {"id":"3","name":"Omar","email":"","contact":"(555) 123-4567","note":"write to omar@example.net"}]}`

func TestRun(t *testing.T) {
	risky := writeFile(t, "risky.json", riskyManifest)
	riskyState := writeFile(t, "risky-state.json", riskyState)
	badJSON := writeFile(t, "bad.json", `{"pinhole":1,`)
	invalid := writeFile(t, "invalid.json", `{"pinhole":1,"regions":[{"id":"a","colour":"blue"}]}`)
	describe := []string{"describe", "--manifest", ordersManifest, "--state", ordersState, "--key", key}

	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string // exact, when not empty
		has    string // stdout contains, when not empty
		stderr string // stderr contains, when not empty
	}{
		{name: "describe", args: describe, code: 0,
			stdout: nativeDescribe(t, `{"op":"describe"}`)},
		{name: "describe window", args: append(describe[:len(describe):len(describe)], "--offset", "0", "--limit", "2"), code: 0,
			stdout: nativeDescribe(t, `{"op":"describe","offset":0,"limit":2}`)},
		{name: "describe records as strings", args: append(describe[:len(describe):len(describe)], "--record", "SO-1003", "--record", "1002"), code: 1,
			stdout: nativeDescribe(t, `{"op":"describe","record":["SO-1003","1002"]}`), has: `"code":"unknown_record"`},
		{name: "describe record with limit", args: append(describe[:len(describe):len(describe)], "--record", "SO-1002", "--limit", "2"), code: 1,
			has: `{"error":{"code":"record_with_window"`},
		{name: "describe pretty", args: append(describe[:len(describe):len(describe)], "--pretty", "--limit", "1"), code: 0,
			has: "{\n  \"snapshot\": \"s1\",\n"},
		{name: "describe invalid manifest", args: []string{"describe", "--manifest", invalid, "--state", ordersState}, code: 1,
			has: `{"error":{"code":"invalid_manifest"`},
		{name: "describe missing manifest", args: []string{"describe", "--state", ordersState}, code: 2,
			stderr: "--manifest and --state are required"},
		{name: "describe unknown flag", args: []string{"describe", "--colour", "blue"}, code: 2,
			stderr: "flag provided but not defined: -colour"},
		{name: "describe unreadable state", args: []string{"describe", "--manifest", ordersManifest, "--state", "no-such-file.json"}, code: 2,
			stderr: "--state: open no-such-file.json"},
		{name: "describe state not JSON", args: []string{"describe", "--manifest", ordersManifest, "--state", badJSON}, code: 2,
			stderr: "is not valid JSON"},
		{name: "describe empty key", args: []string{"describe", "--manifest", ordersManifest, "--state", ordersState, "--key", ""}, code: 2,
			stderr: "--key must not be empty"},
		{name: "no command", args: nil, code: 2, stderr: "usage:"},
		{name: "unknown command", args: []string{"fly"}, code: 2, stderr: `unknown command "fly"`},
		{name: "help", args: []string{"help"}, code: 0, has: "pinhole lint --manifest M"},
		{name: "version", args: []string{"version"}, code: 0,
			stdout: "pinhole " + session.Version + " (manifest format 1, ABI 1)\n"},
		{name: "lint orders", args: []string{"lint", "--manifest", ordersManifest, "--state", ordersState}, code: 0, stdout: "\x00"},
		{name: "lint orders without state", args: []string{"lint", "--manifest", ordersManifest}, code: 0, stdout: "\x00"},
		{name: "lint risky", args: []string{"lint", "--manifest", risky, "--state", riskyState}, code: 1, stdout: strings.Join([]string{
			`/regions/1: region "side" has no description; the agent cannot tell what it holds`,
			`/collections/0/fields/email: field is exposed plain but is named like an e-mail address; declare expose mask, alias or placeholder, or leave it out`,
			`/collections/0/fields/email: field is exposed plain but its values in the state look like e-mail addresses (2 of 3 records); declare expose mask, alias or placeholder, or leave it out`,
			`/collections/0/fields/contact: field is exposed plain but its values in the state look like phone numbers (2 of 3 records); declare expose mask, alias or placeholder, or leave it out`,
			`/collections/0/fields/note: field is exposed plain but its values in the state look like e-mail addresses (1 of 3 records); declare expose mask, alias or placeholder, or leave it out`,
			`/collections/0/fields/note: field is exposed plain but its values in the state look like card numbers (1 of 3 records); declare expose mask, alias or placeholder, or leave it out`,
			`/state/session: state key is exposed plain but is named like a credential; state keys are always exposed plain, declare it as a masked field or leave it out`,
			`/state/session: its value in the state looks like a credential; state keys are always exposed plain, declare it as a masked field or leave it out`,
			`/capabilities/0/description: capability "p.call" has a description shorter than 8 characters; agents choose actions by their descriptions`,
			`/collections/0/fields/apiKey/from: no record of the sample state has /key; check the path against the store (the agent would see nothing there, and no error says so)`,
		}, "\n") + "\n"},
		{name: "lint risky without state", args: []string{"lint", "--manifest", risky}, code: 1, stdout: strings.Join([]string{
			`/regions/1: region "side" has no description; the agent cannot tell what it holds`,
			`/collections/0/fields/email: field is exposed plain but is named like an e-mail address; declare expose mask, alias or placeholder, or leave it out`,
			`/state/session: state key is exposed plain but is named like a credential; state keys are always exposed plain, declare it as a masked field or leave it out`,
			`/capabilities/0/description: capability "p.call" has a description shorter than 8 characters; agents choose actions by their descriptions`,
		}, "\n") + "\n"},
		{name: "lint invalid manifest", args: []string{"lint", "--manifest", invalid}, code: 2,
			stdout: `{"error":{"code":"invalid_manifest","message":"/regions/0/colour: unknown key","param":"/regions/0/colour"}}` + "\n"},
		{name: "lint manifest not JSON", args: []string{"lint", "--manifest", badJSON}, code: 2, has: `{"error":{"code":"invalid_manifest"`},
		{name: "lint missing manifest", args: []string{"lint"}, code: 2, stderr: "--manifest is required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			switch c.stdout {
			case "":
			case "\x00": // exactly nothing
				if stdout != "" {
					t.Errorf("stdout: %s, want nothing", stdout)
				}
			default:
				if stdout != c.stdout {
					t.Errorf("stdout:\n%s\nwant:\n%s", stdout, c.stdout)
				}
			}
			if c.has != "" && !strings.Contains(stdout, c.has) {
				t.Errorf("stdout lacks %q:\n%.400s", c.has, stdout)
			}
			if c.stderr != "" && !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, stderr)
			}
			if c.code == 2 && c.stderr != "" && !strings.Contains(stderr, "usage:") {
				t.Errorf("a usage error without the usage:\n%s", stderr)
			}
			if c.code != 2 && stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
		})
	}
}

// TestLintNeverQuotesValues: findings say what values look like, never what
// they are.
func TestLintNeverQuotesValues(t *testing.T) {
	risky := writeFile(t, "risky.json", riskyManifest)
	st := writeFile(t, "state.json", riskyState)
	_, stdout, _ := runCLI("lint", "--manifest", risky, "--state", st)
	for _, v := range []string{"ada@", "omar@", "7946", "4242", "123-4567", "eyJ"} {
		if strings.Contains(stdout, v) {
			t.Errorf("lint output quotes a value (%s):\n%s", v, stdout)
		}
	}
}

func TestWasmMatchesNative(t *testing.T) {
	if _, err := os.Stat(wasmFile); err != nil {
		t.Fatalf("build/pinhole.wasm is missing (run make wasm): %v", err)
	}
	for _, extra := range [][]string{nil, {"--offset", "8", "--limit", "3"}, {"--record", "SO-1002", "--record", "SO-1040"}, {"--record", "SO-1002", "--limit", "3"}} {
		args := append([]string{"describe", "--manifest", ordersManifest, "--state", ordersState, "--key", key}, extra...)
		nCode, native, _ := runCLI(args...)
		wCode, wasm, stderr := runCLI(append(args, "--wasm", wasmFile)...)
		if nCode != wCode || native != wasm || native == "" {
			t.Fatalf("%v: native (exit %d) and wasm (exit %d) differ\nnative: %.300s\nwasm:   %.300s\nstderr: %s", extra, nCode, wCode, native, wasm, stderr)
		}
	}
	_, native, _ := runCLI("version")
	_, wasm, _ := runCLI("version", "--wasm", wasmFile)
	if native != wasm {
		t.Fatalf("version: native %q, wasm %q", native, wasm)
	}
	code, _, stderr := runCLI("describe", "--manifest", ordersManifest, "--state", ordersState, "--wasm", "no-such.wasm")
	if code != 2 || !strings.Contains(stderr, "--wasm: open no-such.wasm") {
		t.Fatalf("missing module: exit %d, %s", code, stderr)
	}
}

func TestReplay(t *testing.T) {
	lines := []string{
		`{"op":"version"}`,
		`{"op":"load","manifest":{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/c","id":"/id","fields":{"n":{"from":"/n"}}}]},"key":"` + key + `"}`,
		`{"op":"observe","state":{"c":[{"id":"a","n":1}]}}`,
		`{"op":"describe"}`,
		`{"op":"fly"}`,
	}
	a := writeFile(t, "a.in.jsonl", strings.Join(lines, "\n")+"\n")
	b := writeFile(t, "b.in.jsonl", lines[3]+"\n")
	s := session.New()
	var want strings.Builder
	for _, l := range lines {
		want.Write(s.Call([]byte(l)))
		want.WriteByte('\n')
	}
	// b runs in a fresh session: nothing is loaded there.
	want.Write(session.New().Call([]byte(lines[3])))
	want.WriteByte('\n')

	for _, extra := range [][]string{nil, {"--wasm", wasmFile}} {
		code, stdout, stderr := runCLI(append(append([]string{"replay"}, extra...), a, b)...)
		if code != 0 || stdout != want.String() {
			t.Fatalf("replay %v: exit %d\n%s\nwant\n%s\nstderr: %s", extra, code, stdout, want.String(), stderr)
		}
		if n := strings.Count(stdout, "\n"); n != len(lines)+1 {
			t.Fatalf("replay %v: %d lines, want %d", extra, n, len(lines)+1)
		}
		if !strings.Contains(stdout, `"code":"not_loaded"`) {
			t.Fatalf("replay %v: the second file did not get a fresh session", extra)
		}
	}
	if code, _, stderr := runCLI("replay"); code != 2 || !strings.Contains(stderr, "usage:") {
		t.Fatalf("replay without files: exit %d, %s", code, stderr)
	}
}
