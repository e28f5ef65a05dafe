package patch

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// FuzzApply checks Apply against a simple reference implementation that
// rebuilds every container on a path, and checks that neither the document
// nor the patch is ever changed, whatever the outcome, and that every
// result is a tree within the bound on what copies make.
func FuzzApply(f *testing.F) {
	for _, c := range cases {
		f.Add(c.doc, c.ops)
	}
	f.Add(`{"a":[1,2,3],"b":{"c":{"d":[]}}}`, `[{"op":"copy","from":"/a","path":"/b/c/d/0"},{"op":"remove","path":"/a/1"},{"op":"add","path":"/b/c/d/0/-","value":4},{"op":"test","path":"/a","value":[1,3]}]`)
	f.Add(`{"a":{"b":1}}`, `[{"op":"copy","from":"/a","path":"/c"},{"op":"move","from":"/c","path":"/a/d"},{"op":"replace","path":"/a/d/b","value":2},{"op":"test","path":"/a/b","value":1}]`)
	f.Add(`[[0],[1]]`, `[{"op":"move","from":"/0","path":"/1/-"},{"op":"add","path":"/0/0","value":{}},{"op":"copy","from":"","path":"/0/0/x"}]`)
	// Chains of copies of copies: each doubles the value, until the bound.
	f.Add(`{"l":[1]}`, copyChain(12))
	f.Add(`{"l":[1]}`, copyChain(40))
	f.Add(`{"a":{"b":"x"}}`, `[{"op":"copy","from":"/a","path":"/a/c"},{"op":"copy","from":"/a","path":"/a/c/d"},{"op":"copy","from":"","path":"/a/e"},{"op":"copy","from":"/a","path":"/f"},{"op":"copy","from":"/f","path":"/a/g"},{"op":"copy","from":"","path":"/h"},{"op":"copy","from":"","path":"/i"}]`)
	// A large object: its members are looked up in the patch's index.
	f.Add(bigObject(40), `[{"op":"remove","path":"/o/k3"},{"op":"add","path":"/o/k3","value":1},{"op":"test","path":"/o/k39","value":39},{"op":"move","from":"/o/k5","path":"/o/k7"},{"op":"remove","path":"/o/k0"},{"op":"replace","path":"/o/k39","value":[]},{"op":"copy","from":"/o","path":"/o/k39/-"},{"op":"test","path":"/o/k38","value":38},{"op":"remove","path":"/o/k3"},{"op":"test","path":"/o/k39/0/k38","value":38}]`)
	// Moving a value down and up again: each deeper move checks its depth.
	f.Add(`{"a":[[],[],[],[],[],[],[],[],[],[]],"b":{}}`, "["+strings.TrimSuffix(strings.Repeat(`{"op":"move","from":"/a","path":"/b/x"},{"op":"move","from":"/b/x","path":"/a"},`, 30), ",")+`]`)
	f.Add(`[]`, `[{"op":"add","path":"/-","value":{"k":[1,2,3]}},{"op":"copy","from":"/0","path":"/-"},{"op":"copy","from":"","path":"/-"},{"op":"copy","from":"","path":"/-"},{"op":"copy","from":"","path":"/0/k/-"},{"op":"copy","from":"","path":"/-"},{"op":"remove","path":"/1"}]`)
	f.Fuzz(func(t *testing.T, docText, opsText string) {
		doc, err1 := jsonval.Parse([]byte(docText))
		ops, err2 := jsonval.Parse([]byte(opsText))
		if err1 != nil || err2 != nil {
			return
		}
		before, opsBefore := jsonval.Marshal(doc), jsonval.Marshal(ops)
		got, err := Apply(doc, ops)
		if !bytes.Equal(jsonval.Marshal(doc), before) {
			t.Fatalf("doc changed (err %v)", err)
		}
		if !bytes.Equal(jsonval.Marshal(ops), opsBefore) {
			t.Fatalf("ops changed (err %v)", err)
		}
		want := reference(doc, ops)
		if (err == nil) != (want != nil) {
			t.Fatalf("Apply error %v, reference ok %v", err, want != nil)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("error %T %v with result %v", err, err, got)
			}
			return
		}
		if !jsonval.Equal(got, want) {
			t.Fatalf("Apply = %s, reference = %s", jsonval.Marshal(got), jsonval.Marshal(want))
		}
		if sharedNode(got, map[*jsonval.Value]bool{}) {
			t.Fatal("a node of the result is reachable by two paths")
		}
		if n, bound := refSize(got), 2*(refSize(doc)+refSize(ops)); n > bound {
			t.Fatalf("result of size %d, bound %d", n, bound)
		}
		// The result is a valid document: no duplicate keys, depth in bounds.
		if _, err := jsonval.Parse(jsonval.Marshal(got)); err != nil {
			t.Fatalf("result does not parse: %v", err)
		}
		// Patching the result again must not disturb it either, nor the
		// patch, whose values the result holds.
		again := jsonval.Marshal(got)
		_, _ = Apply(got, ops)
		if !bytes.Equal(jsonval.Marshal(got), again) {
			t.Fatal("result changed by a second patch")
		}
		if !bytes.Equal(jsonval.Marshal(ops), opsBefore) {
			t.Fatal("ops changed by patching a result that holds their values")
		}
	})
}

// reference applies ops the slow, obvious way: every change rebuilds the
// containers on its path. It returns nil when the patch fails.
func reference(doc, ops *jsonval.Value) *jsonval.Value {
	if ops.Kind != jsonval.Array || len(ops.Items) > MaxOps {
		return nil
	}
	ptr := func(o *jsonval.Value, k string) (jsonval.Pointer, bool) {
		s := o.Get(k)
		if s == nil || s.Kind != jsonval.String {
			return nil, false
		}
		p, err := jsonval.ParsePointer(s.S)
		return p, err == nil && len(p) <= jsonval.MaxDepth
	}
	d := doc
	budget := refSize(doc) + refSize(ops) // what the copies may copy
	walk := budget                        // containers deeper moves may check
	for _, o := range ops.Items {
		if o.Kind != jsonval.Object || o.Get("op") == nil || o.Get("op").Kind != jsonval.String {
			return nil
		}
		path, ok := ptr(o, "path")
		if !ok {
			return nil
		}
		val := o.Get("value")
		switch o.Get("op").S {
		case "test":
			if val == nil {
				return nil
			}
			if v := refGet(d, path); v == nil || !jsonval.Equal(v, val) {
				return nil
			}
			continue
		case "add":
			if val == nil {
				return nil
			}
			d = refAdd(d, path, val)
		case "remove":
			d = refRemove(d, path)
		case "replace":
			if val == nil || refGet(d, path) == nil {
				return nil
			}
			if len(path) == 0 {
				d = val
			} else {
				d = refAdd(refRemove(d, path), path, val)
			}
		case "move", "copy":
			from, ok := ptr(o, "from")
			if !ok {
				return nil
			}
			v := refGet(d, from)
			if v == nil {
				return nil
			}
			if o.Get("op").S == "move" {
				if len(from) < len(path) && isPrefix(from, path) {
					return nil
				}
				if len(from) == len(path) && isPrefix(from, path) {
					continue
				}
				if len(path) > len(from) {
					if walk -= refContainers(v); walk < 0 {
						return nil
					}
				}
				d = refRemove(d, from)
			} else if budget -= refSize(v); budget < 0 {
				return nil
			}
			d = refAdd(d, path, v)
		default:
			return nil
		}
		if d == nil || refDepth(d) > jsonval.MaxDepth {
			return nil
		}
	}
	return d
}

// refSize is the length of v as compact JSON with its strings written
// unescaped.
func refSize(v *jsonval.Value) int {
	var enc func(v *jsonval.Value) string
	enc = func(v *jsonval.Value) string {
		switch v.Kind {
		case jsonval.String:
			return `"` + v.S + `"`
		case jsonval.Array:
			parts := []string{}
			for _, it := range v.Items {
				parts = append(parts, enc(it))
			}
			return "[" + strings.Join(parts, ",") + "]"
		case jsonval.Object:
			parts := []string{}
			for i, k := range v.Keys {
				parts = append(parts, `"`+k+`":`+enc(v.Vals[i]))
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
		return string(jsonval.Marshal(v))
	}
	return len(enc(v))
}

// refContainers counts the arrays and objects in v.
func refContainers(v *jsonval.Value) int {
	if v.Kind != jsonval.Array && v.Kind != jsonval.Object {
		return 0
	}
	n := 1
	for _, c := range append(append([]*jsonval.Value{}, v.Items...), v.Vals...) {
		n += refContainers(c)
	}
	return n
}

func refDepth(v *jsonval.Value) int {
	max := 0
	for _, c := range append(append([]*jsonval.Value{}, v.Items...), v.Vals...) {
		if n := refDepth(c); n > max {
			max = n
		}
	}
	if v.Kind == jsonval.Array || v.Kind == jsonval.Object {
		return max + 1
	}
	return 0
}

func refGet(v *jsonval.Value, p jsonval.Pointer) *jsonval.Value {
	for _, tok := range p {
		if v == nil {
			return nil
		}
		v = refChild(v, tok)
	}
	return v
}

// refIndex reads an array index as RFC 6901 writes one ("0" or digits
// without a leading zero), independently of jsonval.ArrayIndex.
func refIndex(tok string) (int, bool) {
	if tok != "0" && (tok == "" || tok[0] < '1' || tok[0] > '9') {
		return 0, false
	}
	n, err := strconv.Atoi(tok)
	if err != nil || strings.ContainsAny(tok, "+-") || n > 999999999 {
		return 0, false
	}
	return n, true
}

func refChild(v *jsonval.Value, tok string) *jsonval.Value {
	switch v.Kind {
	case jsonval.Object:
		for i, k := range v.Keys {
			if k == tok {
				return v.Vals[i]
			}
		}
	case jsonval.Array:
		if n, ok := refIndex(tok); ok && n < len(v.Items) {
			return v.Items[n]
		}
	}
	return nil
}

// refAt rebuilds the containers from v down to the parent of p, where edit
// returns the new parent (nil: failure).
func refAt(v *jsonval.Value, p jsonval.Pointer, edit func(par *jsonval.Value, tok string) *jsonval.Value) *jsonval.Value {
	if v == nil {
		return nil
	}
	if len(p) == 1 {
		return edit(v, p[0])
	}
	child := refChild(v, p[0])
	if child == nil {
		return nil
	}
	nc := refAt(child, p[1:], edit)
	if nc == nil {
		return nil
	}
	return refWith(v, p[0], nc)
}

// refWith returns a copy of container v with the member tok set to c.
func refWith(v *jsonval.Value, tok string, c *jsonval.Value) *jsonval.Value {
	out := &jsonval.Value{Kind: v.Kind, Keys: append([]string{}, v.Keys...),
		Vals: append([]*jsonval.Value{}, v.Vals...), Items: append([]*jsonval.Value{}, v.Items...)}
	if v.Kind == jsonval.Array {
		n, _ := refIndex(tok)
		out.Items[n] = c
		return out
	}
	for i, k := range out.Keys {
		if k == tok {
			out.Vals[i] = c
			return out
		}
	}
	out.Keys, out.Vals = append(out.Keys, tok), append(out.Vals, c)
	return out
}

func refAdd(d *jsonval.Value, p jsonval.Pointer, val *jsonval.Value) *jsonval.Value {
	if d == nil {
		return nil
	}
	if len(p) == 0 {
		return val
	}
	return refAt(d, p, func(par *jsonval.Value, tok string) *jsonval.Value {
		switch par.Kind {
		case jsonval.Object:
			return refWith(par, tok, val)
		case jsonval.Array:
			n := len(par.Items)
			if tok != "-" {
				var ok bool
				if n, ok = refIndex(tok); !ok || n > len(par.Items) {
					return nil
				}
			}
			items := append(append(append([]*jsonval.Value{}, par.Items[:n]...), val), par.Items[n:]...)
			return &jsonval.Value{Kind: jsonval.Array, Items: items}
		}
		return nil
	})
}

func refRemove(d *jsonval.Value, p jsonval.Pointer) *jsonval.Value {
	if d == nil || len(p) == 0 {
		return nil
	}
	return refAt(d, p, func(par *jsonval.Value, tok string) *jsonval.Value {
		if refChild(par, tok) == nil {
			return nil
		}
		out := &jsonval.Value{Kind: par.Kind}
		if par.Kind == jsonval.Array {
			n, _ := refIndex(tok)
			out.Items = append(append([]*jsonval.Value{}, par.Items[:n]...), par.Items[n+1:]...)
			return out
		}
		for i, k := range par.Keys {
			if k != tok {
				out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, par.Vals[i])
			}
		}
		return out
	})
}
