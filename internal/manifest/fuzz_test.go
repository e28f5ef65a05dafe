package manifest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// FuzzManifest feeds arbitrary manifests to the compiler. Parse never
// panics; a failure is an invalid_manifest error whose param is a JSON
// Pointer; a success has reads that are JSON Pointers and limits within
// the implementation's maximums, a read tree equal to the one its reads
// make, and a session that loads it answers
// observe and describe with valid JSON within maxResponseBytes.
func FuzzManifest(f *testing.F) {
	seeds, err := os.ReadFile("../../testdata/fuzz/manifests.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(seeds))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	state, err := os.ReadFile("../../testdata/orders/state.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		plan, err := manifest.Parse(data)
		if err != nil {
			var we *wire.Error
			if !errors.As(err, &we) || we.Code != wire.CodeInvalidManifest {
				t.Fatalf("error %v is not invalid_manifest", err)
			}
			if _, perr := jsonval.ParsePointer(paramOf(err)); perr != nil {
				t.Fatalf("error param %q is not a JSON Pointer: %v", paramOf(err), err)
			}
			return
		}
		for _, p := range plan.Reads.Paths {
			if _, err := jsonval.ParsePointer(p); err != nil {
				t.Fatalf("reads path %q: %v", p, err)
			}
		}
		// The session prunes with the tree the reads were listed from; it
		// must be the tree the bridge builds from the reads.
		if !plan.ReadTree().Same(prune.FromReads(plan.Reads)) {
			t.Fatalf("the plan's read tree differs from the tree of its reads %+v", plan.Reads)
		}
		l, h := plan.Limits, manifest.HardMax()
		if l.MaxLimit > h.MaxLimit || l.DefaultLimit > l.MaxLimit || l.MaxResponseBytes > h.MaxResponseBytes ||
			l.MaxResponseBytes < manifest.MinResponseBytes || l.MaxRecordIds > h.MaxRecordIds || l.MaxFieldChars > h.MaxFieldChars {
			t.Fatalf("limits %+v beyond the maximums %+v", l, h)
		}
		s := session.New()
		for _, req := range [][]byte{
			append(append([]byte(`{"op":"load","key":"fuzz-manifest-key-1","manifest":`), data...), '}'),
			append(append([]byte(`{"op":"observe","state":`), state...), '}'),
			[]byte(`{"op":"describe"}`),
			[]byte(`{"op":"describe","offset":1,"limit":1}`),
			[]byte(`{"op":"after","since":"s1"}`),
		} {
			out := s.Call(req)
			if !json.Valid(out) {
				t.Fatalf("invalid JSON answer: %q", out)
			}
			if len(out) > l.MaxResponseBytes && bytes.HasPrefix(req, []byte(`{"op":"describe"`)) {
				t.Fatalf("describe answer of %d bytes exceeds maxResponseBytes %d", len(out), l.MaxResponseBytes)
			}
		}
	})
}

func paramOf(err error) string {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Param
	}
	return "not a wire error: " + err.Error()
}
