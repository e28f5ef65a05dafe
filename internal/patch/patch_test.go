package patch

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

func parse(t testing.TB, s string) *jsonval.Value {
	t.Helper()
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return v
}

// cases are RFC 6902 Appendix A, plus the edges this package decides.
var cases = []struct {
	name, doc, ops string
	want           string // canonical result, or "" when err is set
	err            string
}{
	{"A1 add object member", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"foo":"bar","baz":"qux"}`, ""},
	{"A2 add array element", `{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`, ""},
	{"A3 remove object member", `{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`, ""},
	{"A4 remove array element", `{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`, ""},
	{"A5 replace", `{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`, ""},
	{"A6 move value", `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`,
		`[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`,
		`{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`, ""},
	{"A7 move array element", `{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`,
		`{"foo":["all","cows","eat","grass"]}`, ""},
	{"A8 test success", `{"baz":"qux","foo":["a",2,"c"]}`,
		`[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`,
		`{"baz":"qux","foo":["a",2,"c"]}`, ""},
	{"A9 test failure", `{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`, "",
		"patch/0: test failed: the value at path differs"},
	{"A10 add nested member", `{"foo":"bar"}`, `[{"op":"add","path":"/child","value":{"grandchild":{}}}]`,
		`{"foo":"bar","child":{"grandchild":{}}}`, ""},
	{"A11 unrecognized members ignored", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux","xyz":123}]`,
		`{"foo":"bar","baz":"qux"}`, ""},
	{"A12 add to nonexistent target", `{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`, "",
		"patch/0: path: its parent does not exist"},
	{"A14 escape ordering", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10}]`, `{"/":9,"~1":10}`, ""},
	{"A15 comparing strings and numbers", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":"10"}]`, "",
		"patch/0: test failed: the value at path differs"},
	{"A16 add array value", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`,
		`{"foo":["bar",["abc","def"]]}`, ""},

	{"add at index == len", `{"a":[1,2]}`, `[{"op":"add","path":"/a/2","value":3}]`, `{"a":[1,2,3]}`, ""},
	{"add past the end", `{"a":[1,2]}`, `[{"op":"add","path":"/a/3","value":3}]`, "",
		"patch/0: path: the index is past the end of the array (length 2)"},
	{"leading zero index", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/01","value":3}]`, "",
		"patch/0: path does not exist"},
	{"add with leading zero", `{"a":[1,2]}`, `[{"op":"add","path":"/a/01","value":3}]`, "",
		"patch/0: path: the last token is not an array index"},
	{"dash is only for add", `{"a":[1,2]}`, `[{"op":"remove","path":"/a/-"}]`, "",
		"patch/0: path does not exist"},
	// RFC 6901 index tokens: no sign, no leading zero; "-" only as the last
	// token of an add (or the target of a move or copy).
	{"add with plus sign", `{"a":[1,2]}`, `[{"op":"add","path":"/a/+0","value":3}]`, "",
		"patch/0: path: the last token is not an array index"},
	{"remove minus zero", `{"a":[1,2]}`, `[{"op":"remove","path":"/a/-0"}]`, "",
		"patch/0: path does not exist"},
	{"replace plus leading zero", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/+01","value":3}]`, "",
		"patch/0: path does not exist"},
	{"test plus sign", `{"a":[1,2]}`, `[{"op":"test","path":"/a/+1","value":2}]`, "",
		"patch/0: path does not exist"},
	{"signed index inside a path", `{"a":[{"b":1}]}`, `[{"op":"replace","path":"/a/+0/b","value":2}]`, "",
		"patch/0: path does not exist"},
	{"move from a signed index", `{"a":[1,2]}`, `[{"op":"move","from":"/a/-0","path":"/b"}]`, "",
		"patch/0: from does not exist"},
	{"copy to a signed index", `{"a":[1,2]}`, `[{"op":"copy","from":"/a/0","path":"/a/+1"}]`, "",
		"patch/0: path: the last token is not an array index"},
	{"dash is not an index inside a path", `{"a":[{"b":1}]}`, `[{"op":"add","path":"/a/-/b","value":2}]`, "",
		"patch/0: path: its parent does not exist"},
	{"move to the end", `{"a":[1,2]}`, `[{"op":"move","from":"/a/0","path":"/a/-"}]`, `{"a":[2,1]}`, ""},
	{"copy to the end", `{"a":[1,2]}`, `[{"op":"copy","from":"/a/0","path":"/a/-"}]`, `{"a":[1,2,1]}`, ""},
	{"replace dash", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/-","value":3}]`, "",
		"patch/0: path does not exist"},
	{"dash names a member of an object", `{"a":{"-":1}}`, `[{"op":"replace","path":"/a/-","value":3}]`, `{"a":{"-":3}}`, ""},
	{"replace missing", `{"orders":{"items":[]}}`, `[{"op":"replace","path":"/orders/items/12/status","value":"x"}]`, "",
		"patch/0: path does not exist"},
	{"replace keeps member order", `{"a":1,"b":2,"c":3}`, `[{"op":"replace","path":"/b","value":9}]`, `{"a":1,"b":9,"c":3}`, ""},
	{"add replaces existing member", `{"a":1,"b":2}`, `[{"op":"add","path":"/a","value":9}]`, `{"a":9,"b":2}`, ""},
	{"replace whole document", `{"a":1}`, `[{"op":"replace","path":"","value":{"b":2}}]`, `{"b":2}`, ""},
	{"add whole document", `{"a":1}`, `[{"op":"add","path":"","value":[1]}]`, `[1]`, ""},
	{"remove whole document", `{"a":1}`, `[{"op":"remove","path":""}]`, "",
		"patch/0: the whole document cannot be removed"},
	{"parent is a scalar", `{"a":1}`, `[{"op":"add","path":"/a/b","value":1}]`, "",
		"patch/0: path: its parent is neither an object nor an array"},
	{"copy", `{"a":{"x":1},"b":{}}`, `[{"op":"copy","from":"/a","path":"/b/c"},{"op":"replace","path":"/a/x","value":2}]`,
		`{"a":{"x":2},"b":{"c":{"x":1}}}`, ""},
	{"copy then change the copy", `{"a":{"x":1}}`, `[{"op":"replace","path":"/a/x","value":5},{"op":"copy","from":"/a","path":"/b"},{"op":"replace","path":"/b/x","value":6}]`,
		`{"a":{"x":5},"b":{"x":6}}`, ""},
	{"copy whole document into itself", `{"a":1}`, `[{"op":"copy","from":"","path":"/self"},{"op":"replace","path":"/self/a","value":2}]`,
		`{"a":1,"self":{"a":2}}`, ""},
	{"move into own child", `{"a":{"b":{}}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`, "",
		"patch/0: from is a parent of path; a value cannot move into itself"},
	{"move onto itself", `{"a":[1,2]}`, `[{"op":"move","from":"/a/0","path":"/a/0"}]`, `{"a":[1,2]}`, ""},
	{"move from missing", `{"a":1}`, `[{"op":"move","from":"/b","path":"/c"}]`, "",
		"patch/0: from does not exist"},
	{"remove then test later op index", `{"a":[1,2,3]}`, `[{"op":"remove","path":"/a/0"},{"op":"remove","path":"/a/0"},{"op":"test","path":"/a/0","value":3},{"op":"remove","path":"/a/1"}]`, "",
		"patch/3: path does not exist"},
	{"remove member of large object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}`,
		`[{"op":"test","path":"/k17","value":17},{"op":"remove","path":"/k3"},{"op":"test","path":"/k17","value":17},{"op":"add","path":"/k3","value":33},{"op":"test","path":"/k3","value":33}]`,
		`{"k0":0,"k1":1,"k2":2,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":33}`, ""},
	{"numbers compare by value", `{"a":1}`, `[{"op":"test","path":"/a","value":1.0}]`, `{"a":1}`, ""},
	{"empty patch", `{"a":1}`, `[]`, `{"a":1}`, ""},

	{"patch not an array", `{}`, `{"op":"add"}`, "", "patch: a patch must be an array of operations"},
	{"op not an object", `{}`, `[1]`, "", "patch/0: an operation must be an object"},
	{"unknown op", `{}`, `[{"op":"merge","path":"/a"}]`, "", "patch/0: op must be one of add, remove, replace, move, copy, test"},
	{"missing op", `{}`, `[{"path":"/a"}]`, "", "patch/0: op must be a string"},
	{"missing path", `{}`, `[{"op":"add","value":1}]`, "", "patch/0: path must be a JSON Pointer string"},
	{"bad pointer", `{}`, `[{"op":"add","path":"a","value":1}]`, "",
		"patch/0: path is not a valid JSON Pointer: a JSON Pointer must be empty or start with '/'"},
	{"bad escape", `{}`, `[{"op":"add","path":"/a~2","value":1}]`, "",
		"patch/0: path is not a valid JSON Pointer: '~' in a JSON Pointer must be followed by '0' or '1'"},
	{"missing value", `{}`, `[{"op":"add","path":"/a"}]`, "", "patch/0: add needs a value"},
	{"missing from", `{"a":1}`, `[{"op":"copy","path":"/b"}]`, "", "patch/0: from must be a JSON Pointer string"},
	{"null value is a value", `{}`, `[{"op":"add","path":"/a","value":null}]`, `{"a":null}`, ""},
}

func TestApply(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, ops := parse(t, c.doc), parse(t, c.ops)
			before, opsBefore := string(jsonval.Marshal(doc)), string(jsonval.Marshal(ops))
			got, err := Apply(doc, ops)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("error = %v, want %q", err, c.err)
				}
				if got != nil {
					t.Fatalf("result on error = %s, want nil", jsonval.Marshal(got))
				}
			} else {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if s := string(jsonval.Marshal(got)); s != c.want {
					t.Fatalf("result = %s, want %s", s, c.want)
				}
			}
			if s := string(jsonval.Marshal(doc)); s != before {
				t.Fatalf("doc changed: %s, was %s", s, before)
			}
			if s := string(jsonval.Marshal(ops)); s != opsBefore {
				t.Fatalf("ops changed: %s, was %s", s, opsBefore)
			}
		})
	}
}

func TestErrorParam(t *testing.T) {
	_, err := Apply(parse(t, `{"a":[]}`), parse(t, `[{"op":"test","path":"/a","value":[]},{"op":"replace","path":"/a/0","value":1}]`))
	if err == nil || err.Param() != "/1/path" || err.Index != 1 {
		t.Fatalf("err = %#v, want *Error at /1/path", err)
	}
	_, err = Apply(parse(t, `{}`), parse(t, `{}`))
	if err == nil || err.Param() != "" {
		t.Fatalf("err = %#v, want *Error with empty param", err)
	}
}

func TestErrorsNeverQuoteValues(t *testing.T) {
	const canary = "CANARY-7f3a"
	doc := parse(t, `{"secret":"`+canary+`","list":["`+canary+`"]}`)
	for _, ops := range []string{
		`[{"op":"test","path":"/secret","value":"` + canary + `x"}]`,
		`[{"op":"test","path":"/list/0","value":"x"}]`,
		`[{"op":"replace","path":"/nope","value":"` + canary + `"}]`,
		`[{"op":"add","path":"/list/9","value":"` + canary + `"}]`,
	} {
		_, err := Apply(doc, parse(t, ops))
		if err == nil || strings.Contains(err.Error(), canary) {
			t.Fatalf("%s: err = %v", ops, err)
		}
	}
}

// Errors never repeat a pointer: its tokens may be keys of the caller's
// data (a credential used as a key, deep in a declared value).
func TestErrorsNameNoPointer(t *testing.T) {
	const key = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	doc := parse(t, `{"a":{"b":[1,2]}}`)
	for _, ops := range []string{
		`[{"op":"remove","path":"/a/` + key + `/x"}]`,
		`[{"op":"replace","path":"/a/` + key + `","value":1}]`,
		`[{"op":"add","path":"/a/` + key + `/x","value":1}]`,
		`[{"op":"add","path":"/a/b/` + key + `","value":1}]`,
		`[{"op":"test","path":"/a/b/` + key + `","value":1}]`,
		`[{"op":"move","from":"/a/` + key + `","path":"/a/c"}]`,
		`[{"op":"copy","from":"/a/b","path":"/a/b/` + key + `"}]`,
		`[{"op":"move","from":"/a","path":"/a/` + key + `"}]`,
		`[{"op":"remove","path":"/` + strings.Repeat("é", 200) + `"}]`,
	} {
		_, err := Apply(doc, parse(t, ops))
		if err == nil || strings.Contains(err.Error(), "ghp_") || strings.Contains(err.Error(), "é") || len(err.Error()) > 120 {
			t.Fatalf("%s: err = %v", ops, err)
		}
	}
}

func TestMaxOps(t *testing.T) {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i <= MaxOps; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"op":"test","path":"","value":{}}`)
	}
	b.WriteByte(']')
	_, err := Apply(parse(t, `{}`), parse(t, b.String()))
	if err == nil || err.Error() != "patch: a patch holds at most 10000 operations" {
		t.Fatalf("err = %v", err)
	}
}

// nested returns n arrays nested in one another.
func nested(n int) *jsonval.Value {
	v := &jsonval.Value{Kind: jsonval.Array}
	for i := 1; i < n; i++ {
		v = &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{v}}
	}
	return v
}

func TestDepthLimit(t *testing.T) {
	op := func(name, path string, value *jsonval.Value) *jsonval.Value {
		o := jsonval.NewObject()
		o.Set("op", jsonval.NewString(name))
		o.Set("path", jsonval.NewString(path))
		if value != nil {
			o.Set("value", value)
		}
		return &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{o}}
	}
	// The root object is one level: a value of MaxDepth-1 levels fits at /a.
	if _, err := Apply(parse(t, `{}`), op("add", "/a", nested(jsonval.MaxDepth-1))); err != nil {
		t.Fatalf("add at the limit: %v", err)
	}
	_, err := Apply(parse(t, `{"a":{}}`), op("add", "/a/b", nested(jsonval.MaxDepth-1)))
	if err == nil || err.Error() != "patch/0: the result would nest deeper than 512 levels" {
		t.Fatalf("add past the limit: %v", err)
	}
	// A test may compare with a value of any depth.
	if _, err := Apply(parse(t, `{"a":{}}`), op("test", "/a/b", nested(jsonval.MaxDepth))); err == nil || err.Error() != "patch/0: path does not exist" {
		t.Fatalf("test: %v", err)
	}
	doc := jsonval.NewObject()
	doc.Set("a", nested(jsonval.MaxDepth-1))
	doc.Set("b", jsonval.NewObject())
	cp := parse(t, `[{"op":"copy","from":"/a","path":"/b/c"}]`)
	_, err = Apply(doc, cp)
	if err == nil || err.Error() != "patch/0: the result would nest deeper than 512 levels" {
		t.Fatalf("copy past the limit: %v", err)
	}
	if _, err := Apply(doc, parse(t, `[{"op":"copy","from":"/a/0","path":"/b/c"}]`)); err != nil {
		t.Fatalf("copy at the limit: %v", err)
	}
}

// orders returns {"orders":{"items":[n records]}}.
func orders(n int) *jsonval.Value {
	items := make([]*jsonval.Value, n)
	for i := range items {
		items[i] = &jsonval.Value{Kind: jsonval.Object, Keys: []string{"number", "status", "note"},
			Vals: []*jsonval.Value{jsonval.NewString("SO-" + strconv.Itoa(i)), jsonval.NewString("open"), jsonval.NewString("n")}}
	}
	arr := &jsonval.Value{Kind: jsonval.Array, Items: items}
	return &jsonval.Value{Kind: jsonval.Object, Keys: []string{"orders"},
		Vals: []*jsonval.Value{{Kind: jsonval.Object, Keys: []string{"items"}, Vals: []*jsonval.Value{arr}}}}
}

func TestCopyOnWriteShares(t *testing.T) {
	doc := orders(10000)
	ops := parse(t, `[{"op":"replace","path":"/orders/items/5000/status","value":"shipped"}]`)
	got, err := Apply(doc, ops)
	if err != nil {
		t.Fatal(err)
	}
	oldItems := doc.Vals[0].Vals[0].Items
	newItems := got.Vals[0].Vals[0].Items
	for i := range oldItems {
		if (oldItems[i] == newItems[i]) != (i != 5000) {
			t.Fatalf("item %d shared = %v", i, oldItems[i] == newItems[i])
		}
	}
	if oldItems[5000].Vals[1].S != "open" || newItems[5000].Vals[1].S != "shipped" {
		t.Fatal("status not replaced on a copy")
	}
	if oldItems[5000].Vals[0] != newItems[5000].Vals[0] {
		t.Fatal("untouched member of the changed record was copied")
	}
	// One op allocates a handful of nodes and the array spine, whatever the
	// array's length.
	small, at2 := orders(10), parse(t, `[{"op":"replace","path":"/orders/items/2/status","value":"shipped"}]`)
	if a, b := testing.AllocsPerRun(20, func() { _, _ = Apply(small, at2) }),
		testing.AllocsPerRun(20, func() { _, _ = Apply(doc, at2) }); a != b || a > 20 {
		t.Fatalf("one replace allocates %v times on 10 records, %v on 10,000", a, b)
	}
}

func TestCopiedContainersChangeInPlace(t *testing.T) {
	doc := orders(10000)
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"op":"replace","path":"/orders/items/` + strconv.Itoa(i*7) + `/status","value":"shipped"}`)
	}
	b.WriteByte(']')
	ops := parse(t, b.String())
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	got, err := Apply(doc, ops)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	// Copying the 10,000-item spine once is 80 KB; copying it per op would
	// be 80 MB.
	if n := m1.TotalAlloc - m0.TotalAlloc; n > 1<<20 {
		t.Fatalf("1000 replaces allocated %d bytes", n)
	}
	if got.Vals[0].Vals[0].Items[6993].Vals[1].S != "shipped" || doc.Vals[0].Vals[0].Items[6993].Vals[1].S != "open" {
		t.Fatal("wrong result")
	}
}

func BenchmarkReplaceOneOf10000(b *testing.B) {
	doc := orders(10000)
	ops := parse(b, `[{"op":"replace","path":"/orders/items/5000/status","value":"shipped"}]`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(doc, ops); err != nil {
			b.Fatal(err)
		}
	}
}

// sharedNode reports whether some node is reachable from v by two paths.
// It visits each node once, so it is linear even when v is not a tree.
func sharedNode(v *jsonval.Value, seen map[*jsonval.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	for _, c := range append(append([]*jsonval.Value(nil), v.Items...), v.Vals...) {
		if sharedNode(c, seen) {
			return true
		}
	}
	return false
}

// reach counts the paths to nodes from v (a node reached by two paths
// counts twice) and stops past limit, so it ends quickly however many
// paths a shared result has.
func reach(v *jsonval.Value, limit int) int {
	n := 1
	for _, c := range append(append([]*jsonval.Value(nil), v.Items...), v.Vals...) {
		if n > limit {
			break
		}
		n += reach(c, limit-n)
	}
	return n
}

// Every result is a tree: a copy shares no node with what it copies, even
// when that is a value the patch added (whose nodes are the patch's own,
// which Apply never changes). A later change through one path cannot show
// through another, and no walk of the result visits a node twice.
func TestCopyMakesATree(t *testing.T) {
	for _, c := range []struct{ doc, ops string }{
		{`{"a":{"x":[1,{"y":2}]}}`, `[{"op":"copy","from":"/a","path":"/b"}]`},
		{`{"a":{"x":[1,{"y":2}]}}`, `[{"op":"copy","from":"","path":"/self"}]`},
		{`{"a":[1]}`, `[{"op":"copy","from":"/a","path":"/a/-"},{"op":"copy","from":"/a","path":"/a/-"}]`},
		{`{"a":{"x":1}}`, `[{"op":"replace","path":"/a/x","value":{"z":[3]}},{"op":"copy","from":"/a","path":"/b"},{"op":"add","path":"/a/w","value":4}]`},
		{`{}`, `[{"op":"add","path":"/v","value":{"k":[1,2]}},{"op":"copy","from":"/v","path":"/w"},{"op":"move","from":"/w","path":"/v/m"}]`},
		{`{"a":{"b":{"c":[]}}}`, `[{"op":"copy","from":"/a/b","path":"/a/b/c/-"},{"op":"move","from":"/a/b/c","path":"/d"},{"op":"copy","from":"/d","path":"/a/e"}]`},
	} {
		doc, ops := parse(t, c.doc), parse(t, c.ops)
		got, err := Apply(doc, ops)
		if err != nil {
			t.Fatalf("%s: %v", c.ops, err)
		}
		if sharedNode(got, map[*jsonval.Value]bool{}) {
			t.Errorf("%s: a node of the result is reachable by two paths", c.ops)
		}
	}
}

// copyChain returns a patch of n copies of /l into itself.
func copyChain(n int) string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = `{"op":"copy","from":"/l","path":"/l/-"}`
	}
	return "[" + strings.Join(ops, ",") + "]"
}

// A chain of copies of copies doubles the copied value with every copy.
// The copies of one patch may copy no more than the document and the patch
// hold, so the result stays within twice their size, and a longer chain is
// refused at the copy that passes the bound.
func TestCopyChainBounded(t *testing.T) {
	doc := parse(t, `{"l":[1]}`)
	refused := false
	for _, n := range []int{1, 2, 4, 8, 12, 16, 20} {
		ops := parse(t, copyChain(n))
		bound := 2 * (Size(doc) + Size(ops))
		got, err := Apply(doc, ops)
		if err != nil {
			refused = true
			if err.Index >= n || err.Param() != "/"+strconv.Itoa(err.Index)+"/from" ||
				err.Msg != "the copies of this patch would copy more than the state and the patch hold together" {
				t.Fatalf("%d copies: %#v", n, err)
			}
			continue
		}
		if refused {
			t.Fatalf("%d copies accepted after a shorter chain was refused", n)
		}
		if r := reach(got, bound); r > bound {
			t.Fatalf("%d copies: the result holds more than %d nodes (%d bytes of patch)", n, bound, len(copyChain(n)))
		}
		if s := Size(got); s > bound {
			t.Fatalf("%d copies: result of size %d, bound %d", n, s, bound)
		}
	}
	if !refused {
		t.Fatal("20 copies of copies were accepted")
	}
	// What a refused chain costs grows with the patch, not with 2^n.
	a22, a200 := parse(t, copyChain(22)), parse(t, copyChain(200))
	if n22, n200 := testing.AllocsPerRun(5, func() { _, _ = Apply(doc, a22) }),
		testing.AllocsPerRun(5, func() { _, _ = Apply(doc, a200) }); n22 > 4000 || n200 > 40000 {
		t.Fatalf("a chain of 22 copies allocates %v times, of 200 copies %v times", n22, n200)
	}
}

// The copies of a patch never make a document larger than max, however
// large the document and the patch are; the error names the copy, not its
// value or pointers.
func TestCopyBoundedByMaxSize(t *testing.T) {
	const key = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	doc := parse(t, `{"l":["`+key+`"],"pad":"`+strings.Repeat("p", 200)+`"}`)
	ops := parse(t, `[{"op":"copy","from":"/l","path":"/m"},{"op":"copy","from":"/l/0","path":"/n"},{"op":"copy","from":"/l","path":"/o"}]`)
	// Size: doc 261, patch 117; the copies are 46, 44, 46 bytes.
	for _, c := range []struct {
		max  int
		want string // "" accepted
	}{
		{1000, ""},
		{261 + 117 + 136, ""},
		{261 + 117 + 135, "patch/2: copying from would make the state larger than 513 bytes"},
		{261 + 117 + 46, "patch/1: copying from would make the state larger than 424 bytes"},
		{261 + 117, "patch/0: copying from would make the state larger than 378 bytes"},
		{100, "patch/0: copying from would make the state larger than 100 bytes"},
	} {
		got, err := apply(doc, ops, c.max)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("max %d: %v", c.max, err)
		case c.want != "" && (err == nil || err.Error() != c.want || err.Param() != "/"+strconv.Itoa(err.Index)+"/from" || got != nil):
			t.Errorf("max %d: error %v, want %q", c.max, err, c.want)
		case err != nil && strings.Contains(err.Error(), "ghp_"):
			t.Errorf("max %d: the error quotes a value: %v", c.max, err)
		}
	}
	if Size(doc) != 261 || Size(ops) != 117 || Size(doc.Get("l")) != 46 {
		t.Fatalf("sizes %d %d %d", Size(doc), Size(ops), Size(doc.Get("l")))
	}
}

// Size is the length of the compact encoding, escapes aside.
func TestSize(t *testing.T) {
	for _, s := range []string{`null`, `true`, `false`, `-1.5e3`, `""`, `"héllo"`, `[]`, `{}`, `[1]`, `[1,[2,[]],{}]`,
		`{"a":1}`, `{"a":1,"bc":{"d":[null,true,"x"]}}`, `[{"":""},{"":[]}]`} {
		if n, want := Size(parse(t, s)), len(s); n != want {
			t.Errorf("Size(%s) = %d, want %d", s, n, want)
		}
	}
	if n := Size(parse(t, `"a\"b\u0001"`)); n != 6 {
		t.Errorf("escapes counted: %d", n)
	}
	// SizeUpTo stops once past its limit, so a value that repeats one
	// node 2^40 times (as a shared copy would) costs about the limit.
	v := parse(t, `"0123456789"`)
	for range 40 {
		v = &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{v, v}}
	}
	if n, over := SizeUpTo(v, 1000); !over || n > 1100 {
		t.Errorf("SizeUpTo of a 2^40-leaf value: %d, over %v", n, over)
	}
	small := parse(t, `{"a":[1,2],"b":"xyz"}`)
	if n, over := SizeUpTo(small, 100); over || n != Size(small) {
		t.Errorf("SizeUpTo within the limit: %d, over %v; Size %d", n, over, Size(small))
	}
}

// BenchmarkCopyRecord22 copies one record of 10,000 to the end of the list
// 22 times: every copy is accepted; the patch pays one walk of the document
// (its size) and the copies.
func BenchmarkCopyRecord22(b *testing.B) {
	doc := orders(10000)
	ops := make([]string, 22)
	for i := range ops {
		ops[i] = `{"op":"copy","from":"/orders/items/` + strconv.Itoa(i*7) + `","path":"/orders/items/-"}`
	}
	p := parse(b, "["+strings.Join(ops, ",")+"]")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(doc, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopyChain22 is 22 copies of copies of a one-item list: refused
// at the copy that passes the bound.
func BenchmarkCopyChain22(b *testing.B) {
	doc, p := parse(b, `{"l":[1]}`), parse(b, copyChain(22))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(doc, p); err == nil {
			b.Fatal("accepted")
		}
	}
}

// A move to a deeper place checks the depth of what it moves. Those checks
// are paid from the same budget as copies, so a patch moving a large value
// down and up again cannot walk it once per operation: 2,000 such moves of
// a 100,000-record list took 3.5 s from an 80 KB patch.
func TestMoveDeeperBounded(t *testing.T) {
	items := make([]string, 1000)
	for i := range items {
		items[i] = `{"k":` + strconv.Itoa(i) + `}`
	}
	doc := parse(t, `{"a":[`+strings.Join(items, ",")+`],"b":{}}`)
	pairs := func(n int, to string) *jsonval.Value {
		return parse(t, "["+strings.TrimSuffix(strings.Repeat(`{"op":"move","from":"/a","path":"`+to+`"},{"op":"move","from":"`+to+`","path":"/a"},`, n), ",")+"]")
	}
	// Down and up a few times: accepted.
	if _, err := Apply(doc, pairs(3, "/b/x")); err != nil {
		t.Fatalf("3 moves down and up: %v", err)
	}
	// At the same depth nothing is checked, however often.
	if _, err := Apply(doc, pairs(2000, "/c")); err != nil {
		t.Fatalf("2000 moves across: %v", err)
	}
	// The state and the patch hold about 91 KB, and each move down checks
	// 1,001 containers: the patch is refused at its 90th move down.
	_, err := Apply(doc, pairs(1000, "/b/x"))
	if err == nil || err.Index >= 400 || err.Index%2 != 0 || err.Param() != "/"+strconv.Itoa(err.Index)+"/path" ||
		err.Msg != "the moves of this patch to deeper places would check more than the state and the patch hold together" {
		t.Fatalf("1000 moves down and up: %v", err)
	}
	// The depth limit still comes first when the value is too deep.
	deep := jsonval.NewObject()
	deep.Set("a", nested(jsonval.MaxDepth-1))
	deep.Set("b", jsonval.NewObject())
	if _, err := Apply(deep, parse(t, `[{"op":"move","from":"/a","path":"/b/c"}]`)); err == nil || err.Msg != "the result would nest deeper than 512 levels" {
		t.Fatalf("move past the depth limit: %v", err)
	}
}

// bigObject returns {"o":{"k0":0,…}} with n members.
func bigObject(n int) string {
	var b strings.Builder
	b.WriteString(`{"o":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	b.WriteString(`}}`)
	return b.String()
}

// Members of a large object this patch owns are looked up in an index that
// removals shift: a long run of mixed operations on one object gives what
// the obvious implementation gives, across the index being dropped and
// built again.
func TestLargeObjectMembers(t *testing.T) {
	doc := parse(t, bigObject(600))
	seed := uint32(1)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	var ops []string
	for range 3000 {
		k := `"/o/k` + strconv.Itoa(next(700)) + `"`
		switch next(6) {
		case 0, 1:
			ops = append(ops, `{"op":"remove","path":`+k+`}`)
		case 2:
			ops = append(ops, `{"op":"add","path":`+k+`,"value":`+strconv.Itoa(next(9))+`}`)
		case 3:
			ops = append(ops, `{"op":"replace","path":`+k+`,"value":{"x":1}}`)
		case 4:
			ops = append(ops, `{"op":"move","from":`+k+`,"path":"/o/k`+strconv.Itoa(next(700))+`"}`)
		case 5:
			ops = append(ops, `{"op":"copy","from":`+k+`,"path":"/o/m`+strconv.Itoa(next(50))+`"}`)
		}
	}
	// Operations on members that are gone fail: keep only those that apply.
	var kept []string
	cur := doc
	for _, op := range ops {
		ref := reference(cur, parse(t, "["+op+"]"))
		if ref == nil {
			continue
		}
		kept, cur = append(kept, op), ref
	}
	if len(kept) < 1500 {
		t.Fatalf("only %d operations apply", len(kept))
	}
	got, err := Apply(doc, parse(t, "["+strings.Join(kept, ",")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	// Equal, as in FuzzApply: the reference's replace moves a member last.
	if !jsonval.Equal(got, cur) {
		t.Fatalf("Apply and the reference differ after %d operations", len(kept))
	}
}

// Operations on the members of a large object cost about the same whatever
// its size: each one used to scan the members, so 10,000 replaces in an
// object of 100,000 members took 24 s and 10,000 removes 230 s. The patch
// below is timed on an object of 1,000 members and one of 64,000.
func TestLargeObjectOperationsDoNotScan(t *testing.T) {
	patchFor := func(n int) *jsonval.Value {
		ops := make([]string, 0, 6000)
		for i := range 2000 {
			k := strconv.Itoa(n - 1 - i%500)
			ops = append(ops, `{"op":"replace","path":"/o/k`+k+`","value":1}`,
				`{"op":"add","path":"/o/new`+strconv.Itoa(i)+`","value":2}`,
				`{"op":"test","path":"/o/k`+k+`","value":1}`)
		}
		return parse(t, "["+strings.Join(ops, ",")+"]")
	}
	timeOf := func(n int) time.Duration {
		doc, ops := parse(t, bigObject(n)), patchFor(n)
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			if _, err := Apply(doc, ops); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := timeOf(1000), timeOf(64000)
	if large > 16*small+20*time.Millisecond {
		t.Fatalf("the patch took %v on 1,000 members and %v on 64,000", small, large)
	}
}

// TestMemberIndexOutlivesRemovals: the index a patch keeps of a large
// object it owns survives maxRemoved removals and is dropped at the next
// (each removal moves the members after it up one place, so an index that
// old would search too far back); every lookup stays exact, and the next
// lookup after the drop indexes the object again. A broken drop would keep
// results right through the fallback scan and only slow large patches
// down, which no timing test tells apart cleanly.
func TestMemberIndexOutlivesRemovals(t *testing.T) {
	doc := parse(t, bigObject(1000))
	a := applier{root: doc, doc: doc, left: -1}
	o := a.parent(jsonval.Pointer{"o", "k0"}) // this patch's own copy of /o
	for i := range maxRemoved + 1 {
		last := "k" + strconv.Itoa(999-i)
		if got, want := a.member(o, last), len(o.Keys)-1-i; got != want {
			t.Fatalf("after %d removals: %s at %d, want %d", i, last, got, want)
		}
		a.remove(jsonval.Pointer{"o", "k" + strconv.Itoa(i)})
		if kept, want := a.keys[o] != nil, i+1 <= maxRemoved; kept != want {
			t.Fatalf("after %d removals: index kept %v, want %v", i+1, kept, want)
		}
	}
	if a.member(o, "k999") != len(o.Keys)-1 || a.keys[o] == nil {
		t.Fatal("the object is not indexed again on the next lookup")
	}
	for i, k := range o.Keys {
		if got := a.member(o, k); got != i {
			t.Fatalf("%s at %d, want %d", k, got, i)
		}
	}
	if a.member(o, "k0") != -1 {
		t.Fatal("a removed member is still found")
	}
}
