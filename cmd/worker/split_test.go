package main

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// FuzzSplitArray: every array the core's parser accepts is split into its
// elements exactly (each part parses to the element), and whatever is
// split has parts that were all in the document.
func FuzzSplitArray(f *testing.F) {
	for _, s := range []string{`[1]`, `[]`, ` [ 1 , "a,]" ,{"b":[2,3]}, [[]] ] `, `["\\", "\""]`, `[{"op":"version"}]`, `[nope]`, `[1,]`, `[[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		items, ok := splitArray([]byte(doc))
		v, err := jsonval.Parse([]byte(doc))
		if err != nil || v.Kind != jsonval.Array {
			return
		}
		if !ok || len(items) != len(v.Items) {
			t.Fatalf("%q: split %v into %d parts, the parser sees %d elements", doc, ok, len(items), len(v.Items))
		}
		for i, it := range items {
			p, err := jsonval.Parse(it)
			if err != nil || !jsonval.Equal(p, v.Items[i]) {
				t.Fatalf("%q part %d %q is not element %d", doc, i, it, i)
			}
		}
	})
}

// FuzzSplitObject: every object the core's parser accepts is split into
// its members exactly, names decoded as the parser decodes them.
func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, ` { "a" : [1, "]"] , "b\u0063":{"d":{}} ,"e":null} `, `{"a":1,"a":2}`, `{"a"}`, `{"\ud800":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		ms, serr := splitObject([]byte(doc))
		v, err := jsonval.Parse([]byte(doc))
		if err != nil || v.Kind != jsonval.Object {
			return
		}
		if serr != nil || len(ms) != len(v.Keys) {
			t.Fatalf("%q: split (%v) into %d members, the parser sees %d", doc, serr, len(ms), len(v.Keys))
		}
		for i, m := range ms {
			p, err := jsonval.Parse(m.value)
			if m.name != v.Keys[i] || err != nil || !jsonval.Equal(p, v.Vals[i]) {
				t.Fatalf("%q member %d: %q=%q, want %q", doc, i, m.name, m.value, v.Keys[i])
			}
		}
	})
}

func TestCopiesInPatch(t *testing.T) {
	for req, want := range map[string]bool{
		`{"op":"observe","patch":[{"op":"copy","from":"/a","path":"/b"}]}`:                                    true,
		`{"patch":[{"path":"/b","op":"add","value":1},{"from":"/a","op":"copy","path":"/c"}],"op":"observe"}`: true,
		`{"op":"observe","p\u0061tch":[{"op":"c\u006fpy","from":"/a","path":"/b"}]}`:                          true,
		`{"op":"\u006fbserve","patch":[{"op":"copy","from":"/a","path":"/b"}]}`:                               true,
		`{"op":"observe","patch":[{"op":"move","from":"/a","path":"/b"}]}`:                                    false,
		`{"op":"observe","patch":[{"op":"add","path":"/b","value":{"op":"copy"}}]}`:                           false,
		`{"op":"observe","state":{"patch":[{"op":"copy"}]}}`:                                                  false,
		`{"op":"describe","patch":[{"op":"copy"}]}`:                                                           false,
		`{"op":"observe","patch":[{"op":"copy","from":"/a","path":"/b"}]`:                                     false, // not JSON: the core refuses it
		`{"op":"observe","patch":{"op":"copy"}}`:                                                              false, // not an array: the core refuses it
	} {
		if got := copiesInPatch([]byte(req)); got != want {
			t.Errorf("%s: %v, want %v", req, got, want)
		}
	}
}
