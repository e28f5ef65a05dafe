// Command pinhole runs the Pinhole core from the command line: it drafts a
// manifest from a sample of the store, describes a state under a manifest,
// lints a manifest for risky declarations, replays conformance vectors and
// prints the version.
//
//	pinhole init --state S [--out FILE [--force]] [--schema URI]
//	pinhole describe --manifest M --state S [--offset N] [--limit N] [--record ID]... [--key K] [--wasm FILE] [--pretty]
//	pinhole lint --manifest M [--state S]
//	pinhole replay [--wasm FILE] VECTOR.in.jsonl...
//	pinhole version [--wasm FILE]
//
// By default the native Go core runs; --wasm FILE runs the same requests
// through that pinhole.wasm under wazero (package host), so the two can be
// compared byte for byte.
//
// Exit status: 0 on success, 1 when the module answered an error (describe)
// or the lint found something, 2 on a usage error or an unreadable input.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tetratelabs/wazero"

	"github.com/pinholectx/pinhole/cmd/internal/randkey"
	"github.com/pinholectx/pinhole/host"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  pinhole init --state S [--out FILE [--force]] [--schema URI]
  pinhole describe --manifest M --state S [--offset N] [--limit N] [--record ID]... [--key K] [--wasm FILE] [--pretty]
  pinhole lint --manifest M [--state S]
  pinhole replay [--wasm FILE] VECTOR.in.jsonl...
  pinhole version [--wasm FILE]

  init      draft a least-exposure manifest from the sample state S, each choice explained in a "$comment"
  describe  load M, observe S, print the describe response (exit 1 on an error response)
  lint      report risky declarations of M, checking sample values in S (exit 1 on findings)
  replay    run each line of each file as a request in a fresh session per file
  version   print the module version, manifest format and ABI

  --manifest FILE  manifest (JSON)        --state FILE   store state (JSON)
  --offset N       first record           --limit N      records in the window
  --record ID      one record by id, repeatable (ids are always sent as strings)
  --key K          session key, 16 to 256 bytes (default: random)
  --wasm FILE      run this pinhole.wasm under wazero instead of the native core
  --pretty         indent the response
  --out FILE       write the draft there (--force: even over a file that exists)
  --schema URI     the draft's "$schema" ("" leaves it out)

  With --wasm, compiled modules are cached in $PINHOLE_CACHE_DIR, else in
  the user cache directory's pinhole/; PINHOLE_NO_CACHE=1 turns that off.

  Exit status: 0 on success, 1 on describe's error response (an invalid
  manifest is one) or lint findings, 2 on a usage error, an unreadable
  input, or a manifest lint cannot load. replay prints every answer, error
  answers too, and exits 0.
`

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // a module error, or lint findings
	exitUsage  = 2 // a usage error, an unusable input, an invalid manifest (lint)
)

// usageError is a mistake in the command line or an unusable input file.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// run is the whole command: main only wires it to the process.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var cmd func([]string, io.Writer) (int, error)
	switch args[0] {
	case "init":
		cmd = runInit
	case "describe":
		cmd = describe
	case "lint":
		cmd = runLint
	case "replay":
		cmd = replay
	case "version":
		cmd = version
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "pinhole: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
	code, err := cmd(args[1:], stdout)
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
			if !errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(stderr, "pinhole %s: %v\n", args[0], err)
			}
			fmt.Fprint(stderr, usage)
			return exitUsage
		}
		fmt.Fprintf(stderr, "pinhole %s: %v\n", args[0], err)
		return exitFailed
	}
	return code
}

// newFlags returns a flag set that reports through the returned error
// instead of printing or exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// readJSON reads a file that must hold one JSON value; the module's own
// strict parser checks it, so a file that is not JSON is a usage error
// rather than a confusing error about the request it would be wrapped in.
func readJSON(flagName, path string) ([]byte, *jsonval.Value, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, usagef("--%s: %v", flagName, err)
	}
	v, err := jsonval.Parse(b)
	if err != nil {
		return nil, nil, usagef("--%s %s is not valid JSON: %v", flagName, path, err)
	}
	return b, v, nil
}

// core runs requests: the native Go core, or pinhole.wasm under wazero.
type core struct {
	mod *host.Module // nil: native
}

// compileCache keeps compiled modules for the life of the process, so that
// a module opened twice (as the tests do) is compiled once; it is used when
// the disk cache (cache.go) is off or unusable.
var compileCache = wazero.NewCompilationCache()

// openCore compiles the module at wasmPath, or picks the native core when
// wasmPath is empty.
func openCore(wasmPath string) (*core, error) {
	if wasmPath == "" {
		return &core{}, nil
	}
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return nil, usagef("--wasm: %v", err)
	}
	mod, err := host.Compile(context.Background(), wasm, host.WithCompilationCache(compilationCache()))
	if err != nil { // a disk cache that failed to store: compile without it
		if mod, err = host.Compile(context.Background(), wasm, host.WithCompilationCache(compileCache)); err != nil {
			return nil, err
		}
	}
	return &core{mod: mod}, nil
}

func (c *core) close() {
	if c.mod != nil {
		c.mod.Close(context.Background())
	}
}

// call is one session's request function.
type call func(req []byte) ([]byte, error)

// session starts a fresh session; a module session ends with the core.
func (c *core) session() (call, error) {
	if c.mod == nil {
		s := session.NewWithRandom(randkey.Fill)
		return func(req []byte) ([]byte, error) { return s.Call(req), nil }, nil
	}
	ctx := context.Background()
	s, err := c.mod.NewSession(ctx)
	if err != nil {
		return nil, err
	}
	return func(req []byte) ([]byte, error) { return s.Call(ctx, req) }, nil
}

// recordFlag collects repeated --record values.
type recordFlag []string

func (r *recordFlag) String() string     { return fmt.Sprint(*r) }
func (r *recordFlag) Set(v string) error { *r = append(*r, v); return nil }

func describe(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("describe")
	manifestPath := fs.String("manifest", "", "manifest `file` (JSON)")
	statePath := fs.String("state", "", "state `file` (JSON)")
	offset := fs.Int("offset", 0, "first record of the window")
	limit := fs.Int("limit", 0, "records in the window")
	var records recordFlag
	fs.Var(&records, "record", "describe this record `id` (repeatable)")
	wasmPath := fs.String("wasm", "", "run this pinhole.wasm `file` under wazero instead of the native core")
	key := fs.String("key", "", "session `key` for aliases and placeholders (16 to 256 bytes; default: random)")
	pretty := fs.Bool("pretty", false, "indent the response")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	if *manifestPath == "" || *statePath == "" {
		return 0, usagef("--manifest and --state are required")
	}
	man, _, err := readJSON("manifest", *manifestPath)
	if err != nil {
		return 0, err
	}
	state, _, err := readJSON("state", *statePath)
	if err != nil {
		return 0, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	k := ""
	if set["key"] {
		if *key == "" {
			return 0, usagef("--key must not be empty (leave it out for a random key)")
		}
		k = *key
	}
	load := wire.LoadRequest(man, k)
	observe := wire.ObserveRequest(state)
	var params wire.DescribeParams
	if set["offset"] {
		params.Offset = offset
	}
	if set["limit"] {
		params.Limit = limit
	}
	params.Record = records
	desc := params.Request()

	c, err := openCore(*wasmPath)
	if err != nil {
		return 0, err
	}
	defer c.close()
	send, err := c.session()
	if err != nil {
		return 0, err
	}
	var out []byte
	for _, req := range [][]byte{load, observe, desc} {
		if out, err = send(req); err != nil {
			return 0, err
		}
		if host.ResponseError(out) != nil {
			break
		}
	}
	if *pretty {
		var b bytes.Buffer
		if err := json.Indent(&b, out, "", "  "); err == nil {
			out = b.Bytes()
		}
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", out); err != nil {
		return 0, err
	}
	if host.ResponseError(out) != nil {
		return exitFailed, nil
	}
	return exitOK, nil
}

func replay(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("replay")
	wasmPath := fs.String("wasm", "", "run this pinhole.wasm `file` under wazero instead of the native core")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() == 0 {
		return 0, usagef("name at least one vector file (NAME.in.jsonl)")
	}
	files := make([][]byte, fs.NArg())
	for i, path := range fs.Args() {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, usageError{err.Error()}
		}
		files[i] = b
	}
	c, err := openCore(*wasmPath)
	if err != nil {
		return 0, err
	}
	defer c.close()
	for _, b := range files {
		send, err := c.session() // one fresh session per file
		if err != nil {
			return 0, err
		}
		b = bytes.TrimSuffix(b, []byte("\n"))
		if len(b) == 0 {
			continue
		}
		for _, req := range bytes.Split(b, []byte("\n")) {
			out, err := send(req)
			if err != nil {
				return 0, err
			}
			if _, err := fmt.Fprintf(stdout, "%s\n", out); err != nil {
				return 0, err
			}
		}
	}
	return exitOK, nil
}

func version(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("version")
	wasmPath := fs.String("wasm", "", "ask this pinhole.wasm `file` instead of the native core")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	c, err := openCore(*wasmPath)
	if err != nil {
		return 0, err
	}
	defer c.close()
	send, err := c.session()
	if err != nil {
		return 0, err
	}
	out, err := send(wire.VersionRequest())
	if err != nil {
		return 0, err
	}
	v, err := jsonval.Parse(out)
	if err != nil || v.Get("version") == nil || v.Get("format") == nil || v.Get("abi") == nil {
		return 0, fmt.Errorf("unreadable version answer")
	}
	_, err = fmt.Fprintf(stdout, "pinhole %s (manifest format %s, ABI %s)\n", v.Get("version").S, v.Get("format").S, v.Get("abi").S)
	return exitOK, err
}

// manifestError prints a manifest's invalid_manifest error as the module
// would answer it.
func manifestError(w io.Writer, e *wire.Error) error {
	_, werr := fmt.Fprintf(w, "%s\n", wire.Encode(&wire.ErrorResponse{Error: e}))
	return werr
}
