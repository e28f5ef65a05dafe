package manifest

import (
	"sort"
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// readTree is the set of declared store paths as a trie. A node with all set
// keeps its whole subtree; a node with each keeps, from an array, every item
// pruned by each.
type readTree struct {
	all      bool
	each     *readTree
	children map[string]*readTree
}

func (t *readTree) child(tok string) *readTree {
	if t.children == nil {
		t.children = map[string]*readTree{}
	}
	c := t.children[tok]
	if c == nil {
		c = &readTree{}
		t.children[tok] = c
	}
	return c
}

func (t *readTree) add(p jsonval.Pointer) *readTree {
	n := t
	for _, tok := range p {
		if n.all {
			return n
		}
		n = n.child(tok)
	}
	return n
}

func (t *readTree) addAll(p jsonval.Pointer) {
	n := t.add(p)
	n.all, n.children, n.each = true, nil, nil
}

// addEach declares p as a collection whose items are read at the item-relative
// pointers rel.
func (t *readTree) addEach(p jsonval.Pointer, rel []jsonval.Pointer) {
	n := t.add(p)
	if n.all {
		return
	}
	if n.each == nil {
		n.each = &readTree{}
	}
	for _, r := range rel {
		n.each.addAll(r)
	}
}

func (p *Plan) buildReads() {
	t := &readTree{}
	if p.Page != nil {
		for _, ptr := range []jsonval.Pointer{p.Page.Route, p.Page.Title} {
			if ptr != nil {
				t.addAll(ptr)
			}
		}
		if p.Page.Params != nil {
			for _, a := range p.Page.Allow {
				t.addAll(append(append(jsonval.Pointer{}, p.Page.Params...), a))
			}
		}
	}
	for _, s := range p.State {
		t.addAll(s.From)
	}
	for _, r := range p.RedescribeOn {
		t.addAll(r)
	}
	if p.SessionScope != nil {
		t.addAll(p.SessionScope)
	}
	if f := p.Feedback; f != nil {
		rel := []jsonval.Pointer{f.Text}
		for _, q := range []jsonval.Pointer{f.Level, f.Source} {
			if q != nil {
				rel = append(rel, q)
			}
		}
		t.addEach(f.From, rel)
	}
	absolute := func(c *Cond) {
		c.visit(func(l *Cond) {
			if !l.Field {
				t.addAll(l.Ptr)
			}
		})
	}
	for _, r := range p.Regions {
		absolute(r.ActiveWhen)
	}
	for ci, col := range p.Collections {
		rel := []jsonval.Pointer{col.ID}
		for _, f := range col.Fields {
			rel = append(rel, f.From)
		}
		for _, cp := range p.Capabilities {
			if !cp.Record || !p.appliesTo(&cp, ci) {
				for _, r := range cp.Unavailable {
					absolute(r.When)
				}
				continue
			}
			for _, r := range cp.Unavailable {
				r.When.visit(func(l *Cond) {
					if l.Field {
						rel = append(rel, l.Ptr)
					} else {
						t.addAll(l.Ptr)
					}
				})
			}
		}
		t.addEach(col.From, rel)
	}
	if len(p.Collections) == 0 {
		for _, cp := range p.Capabilities {
			for _, r := range cp.Unavailable {
				absolute(r.When)
			}
		}
	}
	p.reads = t
	p.Reads.Paths, p.Reads.Collections = []string{}, nil
	t.list(nil, &p.Reads.Paths, &p.Reads.Collections)
	if p.Reads.Collections == nil {
		p.Reads.Collections = []wire.ReadsCollection{}
	}
}

// appliesTo reports whether a record-scope capability applies to the records
// of collection ci: the collection's region is the capability's region or a
// descendant of it.
func (p *Plan) appliesTo(cp *Capability, ci int) bool {
	return p.Within(p.Collections[ci].Region, cp.Region)
}

// AppliesTo is appliesTo for callers outside the package.
func (p *Plan) AppliesTo(capability, collection int) bool {
	return p.appliesTo(&p.Capabilities[capability], collection)
}

func (t *readTree) list(prefix jsonval.Pointer, paths *[]string, cols *[]wire.ReadsCollection) {
	if t.all {
		*paths = append(*paths, prefix.String())
		return
	}
	if t.each != nil {
		var items []string
		t.each.list(nil, &items, nil)
		*cols = append(*cols, wire.ReadsCollection{From: prefix.String(), Items: items})
	}
	keys := make([]string, 0, len(t.children))
	for k := range t.children {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.children[k].list(append(append(jsonval.Pointer{}, prefix...), k), paths, cols)
	}
}

// Prune returns a copy of the store state that holds only declared paths.
// Arrays keep their length so that indices stay meaningful; items that are
// not declared become null.
func (p *Plan) Prune(state *jsonval.Value) *jsonval.Value {
	return p.reads.prune(state)
}

func (t *readTree) prune(v *jsonval.Value) *jsonval.Value {
	if v == nil {
		return nil
	}
	if t.all {
		return v
	}
	if t.each != nil && v.Kind != jsonval.Array {
		// A collection that is not an array: keep the wrong shape, not the
		// data, so the snapshot can warn about it.
		return &jsonval.Value{Kind: v.Kind}
	}
	switch v.Kind {
	case jsonval.Array:
		if t.each != nil {
			out := &jsonval.Value{Kind: jsonval.Array, Items: make([]*jsonval.Value, len(v.Items))}
			for i, it := range v.Items {
				out.Items[i] = t.each.prune(it)
				if out.Items[i] == nil {
					out.Items[i] = &jsonval.Value{Kind: jsonval.Null}
				}
			}
			return out
		}
		if len(t.children) == 0 {
			return nil
		}
		out := &jsonval.Value{Kind: jsonval.Array, Items: make([]*jsonval.Value, len(v.Items))}
		any := false
		for i, it := range v.Items {
			var pv *jsonval.Value
			if c := t.children[strconv.Itoa(i)]; c != nil {
				pv = c.prune(it)
			}
			if pv == nil {
				pv = &jsonval.Value{Kind: jsonval.Null}
			} else {
				any = true
			}
			out.Items[i] = pv
		}
		if !any {
			return nil
		}
		return out
	case jsonval.Object:
		if len(t.children) == 0 {
			return nil
		}
		out := &jsonval.Value{Kind: jsonval.Object}
		for i, k := range v.Keys {
			c := t.children[k]
			if c == nil {
				continue
			}
			if pv := c.prune(v.Vals[i]); pv != nil {
				out.Keys = append(out.Keys, k)
				out.Vals = append(out.Vals, pv)
			}
		}
		if len(out.Keys) == 0 {
			return nil
		}
		return out
	}
	// A scalar where a deeper path was declared: nothing declared is here.
	return nil
}

// PrunePatch returns a JSON Patch that changes only declared data: an
// operation whose path is not declared is dropped (it cannot change the
// declared state), and the value of an add, replace or test is pruned to
// what is declared below its path. Operations it cannot read are kept as
// they are, for the patch applier to reject. orig maps each kept operation
// to its index in ops, so errors can name the caller's operation. Move and
// copy take values from inside the document and are kept; a caller
// applying them must prune the result (NeedsPrune).
func (p *Plan) PrunePatch(ops *jsonval.Value) (out *jsonval.Value, orig []int) {
	if ops == nil || ops.Kind != jsonval.Array {
		return ops, nil
	}
	out = &jsonval.Value{Kind: jsonval.Array, Items: make([]*jsonval.Value, 0, len(ops.Items))}
	keep := func(i int, op *jsonval.Value) {
		out.Items = append(out.Items, op)
		orig = append(orig, i)
	}
	for i, op := range ops.Items {
		path := op.Get("path")
		if path == nil || path.Kind != jsonval.String || op.Get("from") != nil {
			keep(i, op)
			continue
		}
		ptr, err := jsonval.ParsePointer(path.S)
		if err != nil {
			keep(i, op)
			continue
		}
		node := p.reads.at(ptr)
		if node == nil {
			continue // not declared: nothing declared changes
		}
		val := op.Get("value")
		if val == nil {
			keep(i, op)
			continue
		}
		pv := node.prune(val)
		if pv == nil {
			pv = &jsonval.Value{Kind: val.Kind}
			if val.Kind != jsonval.Array && val.Kind != jsonval.Object {
				pv = &jsonval.Value{Kind: jsonval.Null}
			}
		}
		cp := &jsonval.Value{Kind: jsonval.Object, Keys: op.Keys, Vals: append([]*jsonval.Value(nil), op.Vals...)}
		for j, k := range cp.Keys {
			if k == "value" {
				cp.Vals[j] = pv
			}
		}
		keep(i, cp)
	}
	return out, orig
}

// NeedsPrune reports whether a patch holds a move or copy, whose values come
// from inside the document: its result must be pruned again.
func NeedsPrune(ops *jsonval.Value) bool {
	if ops == nil || ops.Kind != jsonval.Array {
		return false
	}
	for _, op := range ops.Items {
		if op.Get("from") != nil {
			return true
		}
	}
	return false
}

// at returns the read node that governs ptr, or nil when nothing at or below
// ptr is declared.
func (t *readTree) at(ptr jsonval.Pointer) *readTree {
	n := t
	for _, tok := range ptr {
		if n.all {
			return n
		}
		if n.each != nil {
			if _, ok := jsonval.ArrayIndex(tok); ok || tok == "-" {
				n = n.each
				continue
			}
		}
		c := n.children[tok]
		if c == nil {
			return nil
		}
		n = c
	}
	return n
}
