package patch_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/patch"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// patchCase is one line of testdata/prune/patch.jsonl. The module keeps
// Kept of the caller's Patch and turns the declared part of State into Out
// (or refuses, naming Error). js/test/prune.test.js replays the same lines:
// applying Patch to the whole State and pruning the result gives Out, so
// an incremental observe and a full one cannot drift apart.
type patchCase struct {
	Name  string          `json:"name"`
	Reads wire.Reads      `json:"reads"`
	State json.RawMessage `json:"state"`
	Patch json.RawMessage `json:"patch"`
	Kept  json.RawMessage `json:"kept"`
	Out   json.RawMessage `json:"out"`
	Error string          `json:"error"`
}

func mustParse(t *testing.T, raw []byte) *jsonval.Value {
	t.Helper()
	v, err := jsonval.Parse(raw)
	if err != nil {
		t.Fatalf("bad JSON in a case: %v", err)
	}
	return v
}

func TestSharedPatchCases(t *testing.T) {
	f, err := os.Open("../../testdata/prune/patch.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c patchCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			tree := prune.FromReads(c.Reads)
			ops := mustParse(t, c.Patch)
			kept, _ := patch.Prune(tree, ops)
			if g, w := string(jsonval.Marshal(kept)), string(jsonval.Marshal(mustParse(t, c.Kept))); g != w {
				t.Fatalf("kept\n got  %.400s\n want %.400s", g, w)
			}
			doc := tree.State(mustParse(t, c.State))
			if doc == nil {
				doc = jsonval.NewObject()
			}
			before := string(jsonval.Marshal(doc))
			got, err := patch.ApplyDeclared(tree, doc, ops)
			if string(jsonval.Marshal(doc)) != before {
				t.Fatal("ApplyDeclared changed the document it was given")
			}
			if c.Error != "" {
				if err == nil || err.Param() != c.Error {
					t.Fatalf("want an error at %s, got %v", c.Error, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g, w := string(jsonval.Marshal(got)), string(jsonval.Marshal(mustParse(t, c.Out))); g != w {
				t.Fatalf("out\n got  %.400s\n want %.400s", g, w)
			}
		})
	}
	if n == 0 {
		t.Fatal("no patch cases")
	}
}

// FuzzApplyDeclared: a patch applied to the declared state gives the
// declared part of the patched store, whenever both apply. This is what
// lets the bridge send patches instead of states.
func FuzzApplyDeclared(f *testing.F) {
	f.Add([]byte(`{"a":{"b":1,"c":[1,2]},"list":[{"id":1,"x":2}]}`), []byte(`[{"op":"replace","path":"/a/b","value":{"d":1}},{"op":"add","path":"/list/-","value":{"id":2,"x":3}}]`), "/a/b", "/list", "/id")
	f.Add([]byte(`{"a":{"b":1},"u":2}`), []byte(`[{"op":"move","from":"/a/b","path":"/u"},{"op":"copy","from":"/u","path":"/a/b"}]`), "/a/b", "/x", "")
	f.Add([]byte(`{"v":[[[1]]]}`), []byte(`[{"op":"add","path":"/v/0/0/-","value":[[2]]},{"op":"test","path":"/v/0/0/0","value":1}]`), "/v", "/w", "/0")
	f.Fuzz(func(t *testing.T, state, ops []byte, path, from, item string) {
		st, err := jsonval.Parse(state)
		if err != nil || st.Kind != jsonval.Object {
			return
		}
		p, err := jsonval.Parse(ops)
		if err != nil || p.Kind != jsonval.Array || len(p.Items) > 64 {
			return
		}
		tree := prune.FromReads(wire.Reads{Paths: []string{path}, Collections: []wire.ReadsCollection{{From: from, Items: []string{item}}}})
		raw, err := patch.Apply(st, p)
		if err != nil {
			return
		}
		doc := tree.State(st)
		if doc == nil {
			doc = jsonval.NewObject()
		}
		got, err := patch.ApplyDeclared(tree, doc, p)
		if err != nil {
			return // a value taken from where the module never looked
		}
		want := tree.State(raw)
		if want == nil {
			want = jsonval.NewObject()
		}
		if !jsonval.Equal(got, want) {
			t.Fatalf("patched declared state %s\nbut the declared part of the patched store is %s", jsonval.Marshal(got), jsonval.Marshal(want))
		}
	})
}
