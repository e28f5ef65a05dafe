// Package prune keeps what a manifest declares of a store state and nothing
// else. A Tree is the set of declared read paths (the `reads` of a load
// answer, which the bridge reads the store by); State prunes a whole state
// with it, and the patch package prunes JSON Patch operations with it.
//
// The rule is the one js/src/reads.js applies before anything leaves the
// page, and the shared cases in testdata/prune hold the two together:
// arrays keep their length and an item that holds nothing declared becomes
// null; an object keeps only declared keys and disappears when none is
// present; an array read item by item that is not an array becomes {};
// a declared value is kept whole, unless it nests deeper than
// MaxDepth levels, in which case it is replaced by the cut marker
// {"$cut":"depth"} (the bridge also marks cycles, "cycle", and arrays
// longer than its MAX_ARRAY_LENGTH, "size": a sparse array's length).
package prune

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// MaxDepth is how many levels of arrays and objects one declared value may
// nest. A deeper value is replaced by the cut marker: that value is left
// out, not the state.
const MaxDepth = 64

// The reasons a cut marker gives.
const (
	CutDepth = "depth" // nested deeper than MaxDepth
	CutCycle = "cycle" // refers to itself (only the bridge can see this)
	CutSize  = "size"  // an array too long to read (the bridge's limit: a sparse array's length counts)
)

// CutKey is the one member of a cut marker.
const CutKey = "$cut"

// Cut returns the marker that stands for a declared value left out for
// reason.
func Cut(reason string) *jsonval.Value {
	return &jsonval.Value{Kind: jsonval.Object, Keys: []string{CutKey}, Vals: []*jsonval.Value{{Kind: jsonval.String, S: reason}}}
}

// IsCut reports whether v is a cut marker: an object whose only member is
// "$cut", with one of the reasons above. A store value of exactly that
// shape is read as a marker too; it is shown as cut, never as itself. Any
// other "$cut" member is store data like any other: kept only where
// declared, so an undeclared one never enters the module.
func IsCut(v *jsonval.Value) bool {
	if v == nil || v.Kind != jsonval.Object || len(v.Keys) != 1 || v.Keys[0] != CutKey || v.Vals[0].Kind != jsonval.String {
		return false
	}
	r := v.Vals[0].S
	return r == CutDepth || r == CutCycle || r == CutSize
}

// Lookup resolves p in root as jsonval.Pointer.Resolve does, except that a
// cut marker met on the way is returned: a declared value inside a value
// the bridge cut (an array too long to read, indexed by a declared path)
// is cut too, not absent.
func Lookup(root *jsonval.Value, p jsonval.Pointer) *jsonval.Value {
	v := root
	for _, tok := range p {
		if v == nil || IsCut(v) {
			return v
		}
		v = jsonval.Pointer{tok}.Resolve(v)
	}
	return v
}

// Tree is a set of declared paths as a trie. A node with all set keeps its
// whole subtree; a node with each keeps, from an array, every item pruned
// by each. Children live in their parent's sorted slice rather than in a
// map of pointers: a tree is a few dozen nodes, and building one (as every
// load does) then costs an allocation or two per parent, not a map and a
// node per child.
type Tree struct {
	all  bool
	each *Tree
	kids []kid // sorted by key
	// spare is where a root carves its nodes' first children from, a block
	// of 4 at a time: one allocation for a few dozen nodes, where each
	// allocation at a load counts against V8's tier-up budget of the Go
	// allocator (BENCHMARKS.md, "Tier-up budgets at start-up").
	spare []kid
}

type kid struct {
	key  string
	tree Tree
}

// search returns the position of tok among t's children, or where it would
// go.
func (t *Tree) search(tok string) int {
	i, _ := slices.BinarySearchFunc(t.kids, tok, func(k kid, tok string) int { return strings.Compare(k.key, tok) })
	return i
}

// get returns the child at tok, or nil.
func (t *Tree) get(tok string) *Tree {
	if i := t.search(tok); i < len(t.kids) && t.kids[i].key == tok {
		return &t.kids[i].tree
	}
	return nil
}

// child returns the child at tok, adding it when missing, its first
// children carved out of spare. The pointer is valid until the next child
// is added to t.
func (t *Tree) child(tok string, spare *[]kid) *Tree {
	i := t.search(tok)
	if i < len(t.kids) && t.kids[i].key == tok {
		return &t.kids[i].tree
	}
	if t.kids == nil {
		t.kids = carve(spare, 4)[:0]
	}
	t.kids = append(t.kids, kid{})
	copy(t.kids[i+1:], t.kids[i:])
	t.kids[i] = kid{key: tok}
	return &t.kids[i].tree
}

// carve returns n zero kids taken from the block spare, a new block of 64
// when it has fewer left; the slice's capacity is n.
func carve(spare *[]kid, n int) []kid {
	s := *spare
	if cap(s)-len(s) < n {
		s = make([]kid, 0, 64)
	}
	*spare = s[:len(s)+n]
	return s[len(s) : len(s)+n : len(s)+n]
}

func (t *Tree) add(p jsonval.Pointer, spare *[]kid) *Tree {
	n := t
	for _, tok := range p {
		if n.all {
			return n
		}
		n = n.child(tok, spare)
	}
	return n
}

// AddAll declares the whole value at p.
func (t *Tree) AddAll(p jsonval.Pointer) { t.addAll(p, &t.spare) }

func (t *Tree) addAll(p jsonval.Pointer, spare *[]kid) {
	n := t.add(p, spare)
	n.all, n.kids, n.each = true, nil, nil
}

// AddEach declares p as an array whose items are read at the item-relative
// pointers rel.
func (t *Tree) AddEach(p jsonval.Pointer, rel []jsonval.Pointer) {
	n := t.add(p, &t.spare)
	if n.all {
		return
	}
	if n.each == nil {
		n.each = &carve(&t.spare, 1)[0].tree // as one child would be
	}
	for _, r := range rel {
		n.each.addAll(r, &t.spare)
	}
}

// Same reports whether t and u declare the same reads, node for node.
func (t *Tree) Same(u *Tree) bool {
	if t == nil || u == nil {
		return t == u
	}
	if t.all != u.all || len(t.kids) != len(u.kids) || !t.each.Same(u.each) {
		return false
	}
	for i := range t.kids {
		if t.kids[i].key != u.kids[i].key || !t.kids[i].tree.Same(&u.kids[i].tree) {
			return false
		}
	}
	return true
}

// Reads lists the tree as a load answer's reads: whole values at paths,
// arrays read item by item as collections, children in key order. The
// texts are written one after the other and cut out of one string.
func (t *Tree) Reads() wire.Reads {
	l := lister{prefix: make([]byte, 0, 128), text: make([]byte, 0, 1024)}
	l.count(t, false)
	// Every list is sized before it is filled, and none holds a pointer: a
	// load allocates as little as it can (BENCHMARKS.md, "Tier-up budgets
	// at start-up").
	l.paths, l.cols, l.items = make([]span, 0, l.npaths), make([]colSpan, 0, l.ncols), make([]span, l.nitems)
	l.list(t, 0, nil)
	text := string(l.text)
	// The paths and every collection's items are cut out of one slice.
	all := make([]string, 0, len(l.paths)+len(l.items))
	for _, p := range l.paths {
		all = append(all, text[p.from:p.to])
	}
	r := wire.Reads{Paths: all[:len(l.paths):len(l.paths)], Collections: make([]wire.ReadsCollection, len(l.cols))}
	for i, c := range l.cols {
		var items []string
		if c.n > 0 {
			from := len(all)
			for _, it := range l.items[c.first : c.first+c.n] {
				all = append(all, text[it.from:it.to])
			}
			items = all[from:len(all):len(all)]
		}
		r.Collections[i] = wire.ReadsCollection{From: text[c.from.from:c.from.to], Items: items}
	}
	return r
}

// span is a text in lister.text.
type span struct{ from, to int }

// colSpan is a collection: its pointer, and its items' relative pointers,
// which are lister.items[first:first+n].
type colSpan struct {
	from     span
	first, n int
}

// lister gathers a tree's reads as spans of one text.
type lister struct {
	prefix                []byte // the pointer of the node being listed
	text                  []byte // every listed pointer, one after the other
	paths                 []span
	cols                  []colSpan
	items                 []span // the collections' items, each's in a run of its own
	used                  int    // items handed out to collections
	npaths, ncols, nitems int
}

// count counts the paths, collections and items under t; in says whether
// t is within a collection's items.
func (l *lister) count(t *Tree, in bool) {
	if t.all {
		if in {
			l.nitems++
		} else {
			l.npaths++
		}
		return
	}
	if t.each != nil {
		l.ncols++
		l.count(t.each, true)
	}
	for i := range t.kids {
		l.count(&t.kids[i].tree, in)
	}
}

// own counts the items of a collection whose item tree is t: its reads,
// less those of collections within it, which have items of their own.
func own(t *Tree) int {
	if t.all {
		return 1
	}
	n := 0
	for i := range t.kids {
		n += own(&t.kids[i].tree)
	}
	return n
}

// keep adds prefix[from:] to the text.
func (l *lister) keep(from int) span {
	s := span{from: len(l.text)}
	l.text = append(l.text, l.prefix[from:]...)
	s.to = len(l.text)
	return s
}

// list lists the reads under t, the node at prefix, as pointers from
// prefix[from:]: as the items of col when it is not nil, as paths
// otherwise.
func (l *lister) list(t *Tree, from int, col *colSpan) {
	if t.all {
		if s := l.keep(from); col != nil {
			l.items[col.first+col.n] = s
			col.n++
		} else {
			l.paths = append(l.paths, s)
		}
		return
	}
	if t.each != nil {
		c := colSpan{from: l.keep(from), first: l.used}
		l.used += own(t.each)
		l.list(t.each, len(l.prefix), &c)
		l.cols = append(l.cols, c)
	}
	n := len(l.prefix)
	for i := range t.kids {
		k := &t.kids[i]
		l.prefix = jsonval.AppendToken(append(l.prefix[:n], '/'), k.key)
		l.list(&k.tree, from, col)
	}
	l.prefix = l.prefix[:n]
}

// FromReads builds the tree of a load answer's reads, as the bridge does.
// A path that is not a JSON Pointer is ignored (the plan never lists one).
func FromReads(r wire.Reads) *Tree {
	t := &Tree{}
	for _, p := range r.Paths {
		if ptr, err := jsonval.ParsePointer(p); err == nil {
			t.AddAll(ptr)
		}
	}
	for _, c := range r.Collections {
		from, err := jsonval.ParsePointer(c.From)
		if err != nil {
			continue
		}
		rel := make([]jsonval.Pointer, 0, len(c.Items))
		for _, it := range c.Items {
			if ptr, err := jsonval.ParsePointer(it); err == nil {
				rel = append(rel, ptr)
			}
		}
		t.AddEach(from, rel)
	}
	return t
}

// State returns the declared part of a store state: a new tree that shares
// every kept value with state. It returns nil when nothing declared is
// present.
func (t *Tree) State(state *jsonval.Value) *jsonval.Value {
	return t.Value(state)
}

// Value prunes v as the value found at t's place in the state.
func (t *Tree) Value(v *jsonval.Value) *jsonval.Value {
	if v == nil {
		return nil
	}
	if t.all {
		if TooDeep(v, 0) {
			return Cut(CutDepth)
		}
		return v
	}
	if IsCut(v) && (t.each != nil || len(t.kids) > 0) {
		// The bridge cut what holds declared values (an array too long to
		// read): kept, so that the values inside show as cut (Lookup).
		return v
	}
	if t.each != nil && v.Kind != jsonval.Array && v.Kind != jsonval.Null {
		// A collection that is not an array: an empty object in its place,
		// not the data, so the snapshot can warn about it.
		return jsonval.NewObject()
	}
	switch v.Kind {
	case jsonval.Array:
		if t.each != nil {
			out := &jsonval.Value{Kind: jsonval.Array, Items: make([]*jsonval.Value, len(v.Items))}
			for i, it := range v.Items {
				out.Items[i] = t.each.Value(it)
				if out.Items[i] == nil {
					out.Items[i] = &jsonval.Value{Kind: jsonval.Null}
				}
			}
			return out
		}
		if len(t.kids) == 0 {
			return nil
		}
		out := &jsonval.Value{Kind: jsonval.Array, Items: make([]*jsonval.Value, len(v.Items))}
		any := false
		for i, it := range v.Items {
			var pv *jsonval.Value
			if c := t.get(strconv.Itoa(i)); c != nil {
				pv = c.Value(it)
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
		if len(t.kids) == 0 {
			return nil
		}
		out := &jsonval.Value{Kind: jsonval.Object}
		for i, k := range v.Keys {
			c := t.get(k)
			if c == nil {
				continue
			}
			if pv := c.Value(v.Vals[i]); pv != nil {
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

// TooDeep reports whether v, found at depth levels below a declared value,
// makes that value nest deeper than MaxDepth. It stops as soon as it knows.
func TooDeep(v *jsonval.Value, depth int) bool {
	if v.Kind != jsonval.Array && v.Kind != jsonval.Object {
		return false
	}
	if depth >= MaxDepth {
		return true
	}
	if v.Kind == jsonval.Array {
		for _, it := range v.Items {
			if TooDeep(it, depth+1) {
				return true
			}
		}
		return false
	}
	for _, it := range v.Vals {
		if TooDeep(it, depth+1) {
			return true
		}
	}
	return false
}

// At returns the node that governs ptr and how many of ptr's tokens lie
// below a whole declared value (0 when ptr is not inside one), or nil when
// nothing at or below ptr is declared. A token below an array read item by
// item must be an array index (RFC 6901: "0" or digits without a leading
// zero) or "-"; any other token names no declared item.
func (t *Tree) At(ptr jsonval.Pointer) (node *Tree, below int) {
	n := t
	for i, tok := range ptr {
		if n.all {
			return n, len(ptr) - i
		}
		if n.each != nil {
			if isIndex(tok) || tok == "-" {
				n = n.each
				continue
			}
		}
		c := n.get(tok)
		if c == nil {
			return nil, 0
		}
		n = c
	}
	return n, 0
}

// Collections returns the lengths of ptr's prefixes that name arrays read
// item by item, outermost first.
func (t *Tree) Collections(ptr jsonval.Pointer) []int {
	var out []int
	n := t
	for i, tok := range ptr {
		if n.all {
			break
		}
		if n.each != nil {
			out = append(out, i)
			if isIndex(tok) || tok == "-" {
				n = n.each
				continue
			}
		}
		if n = n.get(tok); n == nil {
			break
		}
	}
	return out
}

// isIndex reports whether tok is an RFC 6901 array index: "0", or digits
// without a leading zero (no sign, no spaces).
func isIndex(tok string) bool {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return false
		}
	}
	return true
}
