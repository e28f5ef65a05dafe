package prune_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// stateCase is one line of testdata/prune/state.jsonl, which the bridge's
// js/test/prune.test.js replays too: the same reads and state must give the
// same declared slice, member order included.
type stateCase struct {
	Name  string          `json:"name"`
	Reads wire.Reads      `json:"reads"`
	State json.RawMessage `json:"state"`
	Out   json.RawMessage `json:"out"`
}

func readCases[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c T
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no cases", path)
	}
	return out
}

func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	v, err := jsonval.Parse(raw)
	if err != nil {
		t.Fatalf("bad JSON in a case: %v", err)
	}
	return string(jsonval.Marshal(v))
}

func TestSharedStateCases(t *testing.T) {
	for _, c := range readCases[stateCase](t, "../../testdata/prune/state.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			st, err := jsonval.Parse(c.State)
			if err != nil {
				t.Fatal(err)
			}
			got := prune.FromReads(c.Reads).State(st)
			if got == nil {
				got = jsonval.NewObject()
			}
			if g, w := string(jsonval.Marshal(got)), canonical(t, c.Out); g != w {
				t.Fatalf("got  %.400s\nwant %.400s", g, w)
			}
		})
	}
}

// The reads a manifest lists build the same tree back: listing is stable.
func TestReadsRoundTrip(t *testing.T) {
	for _, c := range readCases[stateCase](t, "../../testdata/prune/state.jsonl") {
		tree := prune.FromReads(c.Reads)
		again := prune.FromReads(tree.Reads())
		a, _ := json.Marshal(tree.Reads())
		b, _ := json.Marshal(again.Reads())
		if string(a) != string(b) {
			t.Fatalf("%s: reads %s list as %s", c.Name, a, b)
		}
	}
}

func TestIsCut(t *testing.T) {
	for _, tc := range []struct {
		json string
		want bool
	}{
		{`{"$cut":"depth"}`, true},
		{`{"$cut":"cycle"}`, true},
		{`{"$cut":1}`, false},
		{`{"$cut":"depth","x":1}`, false},
		{`{"cut":"depth"}`, false},
		{`["$cut"]`, false},
		{`"$cut"`, false},
	} {
		v, err := jsonval.Parse([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := prune.IsCut(v); got != tc.want {
			t.Errorf("IsCut(%s) = %v", tc.json, got)
		}
	}
	if !prune.IsCut(prune.Cut(prune.CutDepth)) {
		t.Fatal("Cut does not make a marker")
	}
}

// A marker where declared values lie inside (a state key read by index, a
// collection) is kept, and Lookup finds it on the way to those values.
func TestCutMarkerHoldsDeclaredValues(t *testing.T) {
	var tr prune.Tree
	tr.AddAll(jsonval.Pointer{"list", "0"})
	tr.AddEach(jsonval.Pointer{"items"}, []jsonval.Pointer{{"id"}})
	state, err := jsonval.Parse([]byte(`{"list":{"$cut":"size"},"items":{"$cut":"size"},"other":1}`))
	if err != nil {
		t.Fatal(err)
	}
	out := tr.State(state)
	if got := string(jsonval.Marshal(out)); got != `{"list":{"$cut":"size"},"items":{"$cut":"size"}}` {
		t.Fatalf("pruned to %s", got)
	}
	for _, p := range []jsonval.Pointer{{"list", "0"}, {"list"}, {"items"}} {
		if !prune.IsCut(prune.Lookup(out, p)) {
			t.Errorf("Lookup(%s) is not the marker", p)
		}
	}
	if v := prune.Lookup(state, jsonval.Pointer{"other"}); v == nil || string(jsonval.Marshal(v)) != "1" {
		t.Errorf("Lookup(/other) = %s", jsonval.Marshal(v))
	}
	if prune.Lookup(state, jsonval.Pointer{"missing", "x"}) != nil {
		t.Error("Lookup of a missing path is not nil")
	}
}

// FuzzState: pruning keeps nothing that was not in the state, and pruning
// what it kept again changes nothing.
func FuzzState(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,{"c":2}]},"list":[{"id":1,"x":2}]}`), "/a/b", "/list", "/id")
	f.Add([]byte(`{"v":[[[[1]]]]}`), "", "/v", "/0")
	f.Fuzz(func(t *testing.T, state []byte, path, from, item string) {
		st, err := jsonval.Parse(state)
		if err != nil {
			return
		}
		tree := prune.FromReads(wire.Reads{Paths: []string{path}, Collections: []wire.ReadsCollection{{From: from, Items: []string{item}}}})
		once := tree.State(st)
		if once == nil {
			return
		}
		twice := tree.State(once)
		if !jsonval.Equal(once, twice) {
			t.Fatalf("pruning is not idempotent: %s then %s", jsonval.Marshal(once), jsonval.Marshal(twice))
		}
		if _, err := jsonval.Parse(jsonval.Marshal(once)); err != nil {
			t.Fatalf("pruned state does not encode as JSON: %v", err)
		}
	})
}

// TestSame: Same compares what two trees read, however their nodes were
// allocated.
func TestSame(t *testing.T) {
	build := func(all []string, each string, rel ...string) *prune.Tree {
		tr := &prune.Tree{}
		for _, p := range all {
			tr.AddAll(mustPointer(t, p))
		}
		if each != "" {
			var rs []jsonval.Pointer
			for _, r := range rel {
				rs = append(rs, mustPointer(t, r))
			}
			tr.AddEach(mustPointer(t, each), rs)
		}
		return tr
	}
	a := build([]string{"/a/b", "/a/c", "/d"}, "/items", "/id", "/x/y")
	for _, tc := range []struct {
		name string
		b    *prune.Tree
		same bool
	}{
		{"the same reads added in another order", build([]string{"/d", "/a/c", "/a/b"}, "/items", "/x/y", "/id"), true},
		{"the tree of its reads", prune.FromReads(a.Reads()), true},
		{"one path fewer", build([]string{"/a/b", "/d"}, "/items", "/id", "/x/y"), false},
		{"a whole value around paths", build([]string{"/a", "/d"}, "/items", "/id", "/x/y"), false},
		{"another key", build([]string{"/a/b", "/a/e", "/d"}, "/items", "/id", "/x/y"), false},
		{"another item read", build([]string{"/a/b", "/a/c", "/d"}, "/items", "/id", "/x/z"), false},
		{"no collection", build([]string{"/a/b", "/a/c", "/d"}, ""), false},
	} {
		if got := a.Same(tc.b); got != tc.same {
			t.Errorf("%s: Same = %v", tc.name, got)
		}
		if got := tc.b.Same(a); got != tc.same {
			t.Errorf("%s, reversed: Same = %v", tc.name, got)
		}
	}
}

func mustPointer(t *testing.T, s string) jsonval.Pointer {
	t.Helper()
	p, err := jsonval.ParsePointer(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Reads lists the paths, then each collection with its items, in key
// order, every list cut out of the same text.
func TestReadsListing(t *testing.T) {
	var tr prune.Tree
	for _, p := range []string{"/z", "/a/b", "/a/c"} {
		tr.AddAll(mustPointer(t, p))
	}
	tr.AddEach(mustPointer(t, "/orders"), []jsonval.Pointer{{"total"}, {"id"}, {"ship", "city"}})
	tr.AddEach(mustPointer(t, "/lines"), []jsonval.Pointer{{"sku"}})
	tr.AddEach(mustPointer(t, "/groups"), []jsonval.Pointer{{"name"}, {"zeta"}})
	got, _ := json.Marshal(tr.Reads())
	want := `{"paths":["/a/b","/a/c","/z"],"collections":[` +
		`{"from":"/groups","items":["/name","/zeta"]},` +
		`{"from":"/lines","items":["/sku"]},` +
		`{"from":"/orders","items":["/id","/ship/city","/total"]}]}`
	if string(got) != want {
		t.Fatalf("reads\n got %s\nwant %s", got, want)
	}
}
