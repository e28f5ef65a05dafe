package host

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

// vectorDir holds the conformance vectors: NAME.in.jsonl has one request
// per line, NAME.out.jsonl the exact response of each (see
// internal/session/vectors_test.go, which writes them).
var vectorDir = filepath.Join("..", "testdata", "vectors")

// TestVectors is the differential test: every vector file is replayed
// through one fresh wazero session and one fresh native session, and both
// must answer every line with the golden bytes.
func TestVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(vectorDir, "*.in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no conformance vectors in %s", vectorDir)
	}
	for _, in := range files {
		name := strings.TrimSuffix(filepath.Base(in), ".in.jsonl")
		t.Run(name, func(t *testing.T) {
			reqs := jsonLines(t, in)
			want := jsonLines(t, filepath.Join(vectorDir, name+".out.jsonl"))
			if len(reqs) == 0 || len(reqs) != len(want) {
				t.Fatalf("%d requests, %d golden responses", len(reqs), len(want))
			}
			if err := replayVector(t, reqs, want); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// replayVector runs reqs through a fresh wazero and a fresh native session
// and reports the first response that is not the golden one.
func replayVector(t *testing.T, reqs, want [][]byte) error {
	t.Helper()
	ctx := context.Background()
	s := newSession(t)
	native := session.New()
	for i, req := range reqs {
		if got := native.Call(req); !bytes.Equal(got, want[i]) {
			return fmt.Errorf("line %d: native differs from the golden response%s", i+1, diff(got, want[i]))
		}
		got, err := s.Call(ctx, req)
		if err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		if !bytes.Equal(got, want[i]) {
			return fmt.Errorf("line %d: wazero differs from the golden response, native does not (is build/pinhole.wasm stale? run make wasm)%s", i+1, diff(got, want[i]))
		}
	}
	return nil
}

// jsonLines splits a .jsonl file into its lines; the last one ends with a
// newline.
func jsonLines(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		return nil
	}
	if b[len(b)-1] != '\n' {
		t.Fatalf("%s does not end with a newline", path)
	}
	return bytes.Split(b[:len(b)-1], []byte("\n"))
}

// diff shows where got and want part, with some context.
func diff(got, want []byte) string {
	n := 0
	for n < len(got) && n < len(want) && got[n] == want[n] {
		n++
	}
	from := max(0, n-200)
	show := func(b []byte) string { return string(b[from:min(len(b), n+200)]) }
	return fmt.Sprintf(" at byte %d (got %d bytes, want %d)\n got …%s\nwant …%s", n, len(got), len(want), show(got), show(want))
}

// TestReplayVector checks the replay on a vector written here: it passes on
// the true golden lines and fails on a changed one, so a passing
// TestVectors means something.
func TestReplayVector(t *testing.T) {
	dir := t.TempDir()
	reqs := [][]byte{[]byte(`{"op":"version"}`), []byte(`{"op":"fly"}`)}
	native := session.New()
	var in, out bytes.Buffer
	for _, r := range reqs {
		in.Write(append(r, '\n'))
		out.Write(append(native.Call(r), '\n'))
	}
	inPath, outPath := filepath.Join(dir, "v.in.jsonl"), filepath.Join(dir, "v.out.jsonl")
	if err := os.WriteFile(inPath, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outPath, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	gotReqs, want := jsonLines(t, inPath), jsonLines(t, outPath)
	if len(gotReqs) != 2 || !bytes.Equal(gotReqs[1], reqs[1]) || len(want) != 2 {
		t.Fatalf("jsonLines: %q", gotReqs)
	}
	if err := replayVector(t, gotReqs, want); err != nil {
		t.Fatalf("true golden lines: %v", err)
	}
	want[1] = bytes.Replace(want[1], []byte("unknown operation"), []byte("unknown op"), 1)
	if err := replayVector(t, gotReqs, want); err == nil || !strings.Contains(err.Error(), "line 2:") {
		t.Fatalf("a changed golden line passed: %v", err)
	}
}
