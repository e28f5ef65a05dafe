// Package patch applies RFC 6902 JSON Patch documents to immutable jsonval
// trees, so that observe can take a patch against the last declared state
// instead of the whole state.
//
// Apply never changes the document it is given. It copies only the
// containers on the paths an operation touches (copy on write) and shares
// every other node with the original, so replacing one field of one record
// in a 10,000-record array costs the path plus one copy of the array's item
// pointers, not a copy of the document. A container copied once is changed
// in place by later operations of the same patch. A patch is all or
// nothing: when any operation fails, Apply returns an error and the caller
// keeps the original document, which is untouched.
//
// Every result is a tree: no node is reachable by two paths. The copy
// operation therefore copies the value it copies node by node, and what a
// patch copies is bounded (see Size): if copy shared the value instead, a
// few copies of copies would make a document millions of times the size
// of the patch, and every walk of it (a depth check, a describe) would
// cost that much. The depth checks of moves to deeper places are paid from
// a budget of the same size, so moving a large value down and up again
// cannot cost a walk of it per operation.
//
// Prune and ApplyDeclared (prune.go) keep a caller's patch to what a
// manifest declares, so observe can apply it to the declared state.
//
// All six operations are implemented: add, remove, replace, move, copy and
// test. Errors name the operation's index and member (param "/3/path"),
// never a value and never the pointer's text, whose tokens may be keys of
// the caller's data.
package patch

import (
	"math"
	"slices"
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// MaxOps bounds the operations of one patch.
const MaxOps = 10000

// MaxSize is the largest document, by Size, that the copies of a patch
// may make: the bound of a whole state sent at once (128 MiB, the
// session's MaxRequestBytes), so a patch never builds a larger state than
// a full observe may send.
const MaxSize = 128 << 20

// Error is a failed patch: the index of the operation (-1 for the patch as
// a whole), the member of the operation at fault ("op", "path", "from",
// "value", or "" for the operation object) and what is wrong. Messages name
// pointers and limits, never values.
type Error struct {
	Index  int
	Member string
	Msg    string
}

// Error returns "patch/INDEX: message", or "patch: message" for the patch
// as a whole.
func (e *Error) Error() string {
	if e.Index < 0 {
		return "patch: " + e.Msg
	}
	return "patch/" + strconv.Itoa(e.Index) + ": " + e.Msg
}

// Param returns the JSON Pointer, relative to the patch array, of the place
// at fault: "/3/path", "/3", or "" for the patch as a whole.
func (e *Error) Param() string {
	if e.Index < 0 {
		return ""
	}
	p := "/" + strconv.Itoa(e.Index)
	if e.Member != "" {
		p += "/" + e.Member
	}
	return p
}

// op is one checked operation.
type op struct {
	name       string
	path, from jsonval.Pointer
	value      *jsonval.Value
}

// Apply applies the operations of the patch ops (a JSON array) to doc and
// returns the new document. doc and ops are never modified; the result
// shares every untouched node with doc. On error the result is nil and the
// error names the operation at fault.
func Apply(doc *jsonval.Value, ops *jsonval.Value) (*jsonval.Value, *Error) {
	return apply(doc, ops, MaxSize)
}

// apply is Apply with the bound max on the size of a document that copies
// make.
func apply(doc, ops *jsonval.Value, max int) (*jsonval.Value, *Error) {
	if ops == nil || ops.Kind != jsonval.Array {
		return nil, &Error{Index: -1, Msg: "a patch must be an array of operations"}
	}
	if len(ops.Items) > MaxOps {
		return nil, &Error{Index: -1, Msg: "a patch holds at most " + strconv.Itoa(MaxOps) + " operations"}
	}
	if doc == nil {
		return nil, &Error{Index: -1, Msg: "there is no document to patch"}
	}
	a := applier{root: doc, doc: doc, ops: ops, max: max, left: -1}
	for i, raw := range ops.Items {
		o, err := parseOp(i, raw)
		if err != nil {
			return nil, err
		}
		if err := a.apply(i, &o); err != nil {
			return nil, err
		}
	}
	return a.root, nil
}

func parseOp(i int, v *jsonval.Value) (op, *Error) {
	var o op
	if v == nil || v.Kind != jsonval.Object {
		return o, &Error{Index: i, Msg: "an operation must be an object"}
	}
	name := v.Get("op")
	if name == nil || name.Kind != jsonval.String {
		return o, &Error{Index: i, Member: "op", Msg: "op must be a string"}
	}
	switch name.S {
	case "add", "remove", "replace", "move", "copy", "test":
		o.name = name.S
	default:
		return o, &Error{Index: i, Member: "op", Msg: "op must be one of add, remove, replace, move, copy, test"}
	}
	var err *Error
	if o.path, err = pointer(i, v, "path"); err != nil {
		return o, err
	}
	switch o.name {
	case "add", "replace", "test":
		if o.value = v.Get("value"); o.value == nil {
			return o, &Error{Index: i, Member: "value", Msg: o.name + " needs a value"}
		}
		if o.name != "test" && depth(o.value, jsonval.MaxDepth-len(o.path), nil) > jsonval.MaxDepth-len(o.path) {
			return o, &Error{Index: i, Member: "value", Msg: "the result would nest deeper than " + strconv.Itoa(jsonval.MaxDepth) + " levels"}
		}
	case "move", "copy":
		if o.from, err = pointer(i, v, "from"); err != nil {
			return o, err
		}
	}
	// Other members are ignored, as RFC 6902 §4 requires.
	return o, nil
}

func pointer(i int, v *jsonval.Value, member string) (jsonval.Pointer, *Error) {
	s := v.Get(member)
	if s == nil || s.Kind != jsonval.String {
		return nil, &Error{Index: i, Member: member, Msg: member + " must be a JSON Pointer string"}
	}
	p, err := jsonval.ParsePointer(s.S)
	if err != nil {
		return nil, &Error{Index: i, Member: member, Msg: member + " is not a valid JSON Pointer: " + err.Error()}
	}
	if len(p) > jsonval.MaxDepth {
		return nil, &Error{Index: i, Member: member, Msg: member + " has more than " + strconv.Itoa(jsonval.MaxDepth) + " reference tokens"}
	}
	return p, nil
}

// depth returns how deeply v nests (a scalar is 0, an empty container 1).
// It stops early and returns budget+1 once the depth exceeds budget, so a
// check costs no more than the part of v within the budget. Each container
// it visits takes one from *visits, unless visits is nil (a value of the
// patch, bounded by its size); once that is below zero it stops.
func depth(v *jsonval.Value, budget int, visits *int) int {
	var items []*jsonval.Value
	switch v.Kind {
	case jsonval.Array:
		items = v.Items
	case jsonval.Object:
		items = v.Vals
	default:
		return 0
	}
	if budget <= 0 {
		return budget + 1
	}
	if visits != nil {
		if *visits--; *visits < 0 {
			return 0
		}
	}
	max := 0
	for _, it := range items {
		d := depth(it, budget-1, visits)
		if visits != nil && *visits < 0 {
			return 0
		}
		if d > budget-1 {
			return budget + 1
		}
		if d > max {
			max = d
		}
	}
	return max + 1
}

// applier holds the document being built. fresh holds the containers this
// patch has copied: nothing outside the patch can see them, so they may be
// changed in place.
type applier struct {
	root  *jsonval.Value
	fresh map[*jsonval.Value]struct{}

	// doc and ops are the document and the patch as given; max bounds the
	// result. left is what the copies of this patch may still copy (-1
	// until the first copy works it out) and capped reports that max, not
	// the size of doc and ops, set it.
	doc, ops *jsonval.Value
	max      int
	left     int
	capped   bool
	// walk is what the depth checks of moves may still visit, set with
	// left.
	walk int
	// keys indexes the members of large objects this patch owns.
	keys map[*jsonval.Value]*memberIndex
}

// memberIndex holds the position of each member of a large object at the
// time it was indexed or added. A removal moves the members after it up by
// one, so a member is at most removed places before its recorded position;
// the index is dropped once that passes maxRemoved.
type memberIndex struct {
	pos     map[string]int
	removed int
}

// largeObject is the member count from which an object this patch owns is
// indexed, and maxRemoved how many removals an index outlives.
const (
	largeObject = 32
	maxRemoved  = 256
)

// member returns the position of key in obj, or -1. An object this patch
// owns with many members is looked up in an index; any other is scanned
// (a parsed object's own index serves Get, but this patch copies such an
// object before it changes it, which costs as much as a scan).
func (a *applier) member(obj *jsonval.Value, key string) int {
	if len(obj.Keys) <= largeObject {
		return slices.Index(obj.Keys, key)
	}
	if _, ok := a.fresh[obj]; !ok {
		return slices.Index(obj.Keys, key)
	}
	ix := a.keys[obj]
	if ix == nil {
		ix = &memberIndex{pos: make(map[string]int, len(obj.Keys))}
		for i, k := range obj.Keys {
			ix.pos[k] = i
		}
		if a.keys == nil {
			a.keys = make(map[*jsonval.Value]*memberIndex)
		}
		a.keys[obj] = ix
	}
	h, ok := ix.pos[key]
	if !ok {
		return -1
	}
	for i := min(h, len(obj.Keys)-1); i >= 0 && i >= h-ix.removed; i-- {
		if obj.Keys[i] == key {
			return i
		}
	}
	return slices.Index(obj.Keys, key) // not reached: the index is kept exact enough
}

// resolve returns the value at p in the document being built, or nil, as
// jsonval.Pointer.Resolve does, looking members up with member.
func (a *applier) resolve(p jsonval.Pointer) *jsonval.Value {
	v := a.root
	for _, tok := range p {
		switch v.Kind {
		case jsonval.Object:
			if len(v.Keys) <= largeObject {
				v = v.Get(tok)
			} else if _, ok := a.fresh[v]; !ok {
				v = v.Get(tok) // a parsed object's own index
			} else if k := a.member(v, tok); k >= 0 {
				v = v.Vals[k]
			} else {
				v = nil
			}
		case jsonval.Array:
			i, ok := jsonval.ArrayIndex(tok)
			if !ok || i >= len(v.Items) {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

func (a *applier) apply(i int, o *op) *Error {
	fail := func(member, msg string) *Error { return &Error{Index: i, Member: member, Msg: msg} }
	switch o.name {
	case "test":
		v := a.resolve(o.path)
		if v == nil {
			return fail("path", "path does not exist")
		}
		if !jsonval.Equal(v, o.value) {
			return fail("value", "test failed: the value at path differs")
		}
		return nil
	case "remove":
		if len(o.path) == 0 {
			return fail("path", "the whole document cannot be removed")
		}
		if a.resolve(o.path) == nil {
			return fail("path", "path does not exist")
		}
		a.remove(o.path)
		return nil
	case "replace":
		if a.resolve(o.path) == nil {
			return fail("path", "path does not exist")
		}
		a.put(o.path, o.value, false)
		return nil
	case "add":
		if e := a.canAdd(o.path); e != "" {
			return fail("path", "path"+e)
		}
		a.put(o.path, o.value, true)
		return nil
	}
	// move and copy
	v := a.resolve(o.from)
	if v == nil {
		return fail("from", "from does not exist")
	}
	if e := a.canAdd(o.path); e != "" {
		return fail("path", "path"+e)
	}
	if len(o.path) > len(o.from) {
		// The value goes deeper: check its depth. A move's check is paid
		// from the patch's budget, or a patch moving a large value down and
		// up again would walk it once per operation.
		var visits *int // a copy pays for its size, walk included
		if o.name == "move" {
			a.budget()
			visits = &a.walk
		}
		limit := jsonval.MaxDepth - len(o.path)
		d := depth(v, limit, visits)
		if visits != nil && *visits < 0 {
			return fail("path", "the moves of this patch to deeper places would check more than the state and the patch hold together")
		}
		if d > limit {
			return fail("path", "the result would nest deeper than "+strconv.Itoa(jsonval.MaxDepth)+" levels")
		}
	}
	if o.name == "copy" {
		c, ok := a.clone(v)
		if !ok {
			if a.capped {
				return fail("from", "copying from would make the state larger than "+strconv.Itoa(a.max)+" bytes")
			}
			return fail("from", "the copies of this patch would copy more than the state and the patch hold together")
		}
		a.put(o.path, c, true)
		return nil
	}
	if isPrefix(o.from, o.path) {
		if len(o.from) == len(o.path) {
			return nil // moving a value onto itself changes nothing
		}
		return fail("from", "from is a parent of path; a value cannot move into itself")
	}
	a.remove(o.from)
	// Removing from an array shifts the indices after it; RFC 6902 defines
	// move as remove then add, so the target is resolved afterwards.
	if e := a.canAdd(o.path); e != "" {
		return fail("path", "path"+e)
	}
	a.put(o.path, v, true)
	return nil
}

// clone returns a copy of v that shares no node with it, and spends its
// Size from what the copies of this patch may copy: the size of the
// document and of the patch as given (so a patch can at most double a
// document, plus its own size), and no more than makes the result larger
// than max. A walk that runs past it stops at once and reports false, so a
// refused copy costs no more than the budget.
func (a *applier) clone(v *jsonval.Value) (*jsonval.Value, bool) {
	a.budget()
	return cloneInto(v, &a.left)
}

// budget works out, once per patch, at its first copy or deeper move, what
// its copies may copy and its moves' depth checks may visit: a walk of the
// document, as a full observe of it would make.
func (a *applier) budget() {
	if a.left >= 0 {
		return
	}
	base := Size(a.doc) + Size(a.ops)
	a.left, a.walk = base, base
	if room := a.max - base; room < a.left {
		a.left, a.capped = max(room, 0), true
	}
}

// cloneInto copies v node by node, taking its size from *left; it returns
// false once *left would go below zero.
func cloneInto(v *jsonval.Value, left *int) (*jsonval.Value, bool) {
	if *left -= scalarSize(v); *left < 0 {
		return nil, false
	}
	c := &jsonval.Value{Kind: v.Kind, B: v.B, S: v.S}
	switch v.Kind {
	case jsonval.Array:
		if *left -= max(len(v.Items)-1, 0); *left < 0 {
			return nil, false
		}
		c.Items = make([]*jsonval.Value, len(v.Items))
		for i, it := range v.Items {
			var ok bool
			if c.Items[i], ok = cloneInto(it, left); !ok {
				return nil, false
			}
		}
	case jsonval.Object:
		c.Keys = append([]string(nil), v.Keys...)
		c.Vals = make([]*jsonval.Value, len(v.Vals))
		for i, k := range v.Keys {
			if *left -= len(k) + 3 + min(i, 1); *left < 0 {
				return nil, false
			}
			var ok bool
			if c.Vals[i], ok = cloneInto(v.Vals[i], left); !ok {
				return nil, false
			}
		}
	}
	return c, true
}

// Size returns the length of v as compact JSON, counting each string and
// key as its bytes and two quotes (without the escapes its encoding may
// add). It is the measure of what a patch may copy.
func Size(v *jsonval.Value) int {
	n, _ := SizeUpTo(v, math.MaxInt)
	return n
}

// SizeUpTo measures v as Size does but stops as soon as the count passes
// limit, so measuring costs at most about limit steps however often a value
// repeats (a shared value is counted each time it appears); over reports
// that it passed.
func SizeUpTo(v *jsonval.Value, limit int) (n int, over bool) {
	var walk func(v *jsonval.Value) bool
	walk = func(v *jsonval.Value) bool {
		n += scalarSize(v)
		switch v.Kind {
		case jsonval.Array:
			n += max(len(v.Items)-1, 0) // commas
			for _, it := range v.Items {
				if walk(it) {
					return true
				}
			}
		case jsonval.Object:
			n += max(len(v.Keys)-1, 0) // commas
			for i, k := range v.Keys {
				if n += len(k) + 3; walk(v.Vals[i]) { // quotes and colon
					return true
				}
			}
		}
		return n > limit
	}
	over = walk(v)
	return n, over
}

// scalarSize is the size of v without its members: a scalar's whole size,
// a container's brackets.
func scalarSize(v *jsonval.Value) int {
	switch v.Kind {
	case jsonval.Null:
		return 4
	case jsonval.Bool:
		if v.B {
			return 4
		}
		return 5
	case jsonval.Number:
		return len(v.S)
	case jsonval.String:
		return len(v.S) + 2
	}
	return 2
}

func isPrefix(p, q jsonval.Pointer) bool {
	if len(p) > len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// canAdd checks that add may target p: its parent exists and is a
// container, and for an array the index is "-" or at most the length.
// It returns "" or the end of an error message.
func (a *applier) canAdd(p jsonval.Pointer) string {
	if len(p) == 0 {
		return ""
	}
	parent := a.resolve(p[:len(p)-1])
	if parent == nil {
		return ": its parent does not exist"
	}
	switch parent.Kind {
	case jsonval.Object:
		return ""
	case jsonval.Array:
		tok := p[len(p)-1]
		if tok == "-" {
			return ""
		}
		n, ok := jsonval.ArrayIndex(tok)
		if !ok {
			return ": the last token is not an array index"
		}
		if n > len(parent.Items) {
			return ": the index is past the end of the array (length " + strconv.Itoa(len(parent.Items)) + ")"
		}
		return ""
	}
	return ": its parent is neither an object nor an array"
}

// own returns v itself when this patch made it, otherwise a shallow copy
// that this patch owns. Copies get room for one more member.
func (a *applier) own(v *jsonval.Value) *jsonval.Value {
	if _, ok := a.fresh[v]; ok {
		return v
	}
	c := &jsonval.Value{Kind: v.Kind}
	switch v.Kind {
	case jsonval.Array:
		c.Items = append(make([]*jsonval.Value, 0, len(v.Items)+1), v.Items...)
	case jsonval.Object:
		c.Keys = append(make([]string, 0, len(v.Keys)+1), v.Keys...)
		c.Vals = append(make([]*jsonval.Value, 0, len(v.Vals)+1), v.Vals...)
	}
	if a.fresh == nil {
		a.fresh = make(map[*jsonval.Value]struct{})
	}
	a.fresh[c] = struct{}{}
	return c
}

// parent makes every container from the root down to the parent of p owned
// by this patch and returns that parent. The caller has checked that the
// path to it exists.
func (a *applier) parent(p jsonval.Pointer) *jsonval.Value {
	a.root = a.own(a.root)
	cur := a.root
	for _, tok := range p[:len(p)-1] {
		switch cur.Kind {
		case jsonval.Object:
			k := a.member(cur, tok)
			c := a.own(cur.Vals[k])
			cur.Vals[k] = c
			cur = c
		case jsonval.Array:
			n, _ := jsonval.ArrayIndex(tok)
			c := a.own(cur.Items[n])
			cur.Items[n] = c
			cur = c
		}
	}
	return cur
}

// put sets the value at p: for an array, insert inserts before the index
// (add) where replace overwrites it.
func (a *applier) put(p jsonval.Pointer, val *jsonval.Value, insert bool) {
	if len(p) == 0 {
		a.root = val
		return
	}
	par, tok := a.parent(p), p[len(p)-1]
	if par.Kind == jsonval.Object {
		if k := a.member(par, tok); k >= 0 {
			par.Vals[k] = val
			return
		}
		par.Keys, par.Vals = append(par.Keys, tok), append(par.Vals, val)
		if ix := a.keys[par]; ix != nil {
			ix.pos[tok] = len(par.Keys) - 1
		}
		return
	}
	if tok == "-" {
		par.Items = append(par.Items, val)
		return
	}
	n, _ := jsonval.ArrayIndex(tok)
	if !insert {
		par.Items[n] = val
		return
	}
	par.Items = append(par.Items, nil)
	copy(par.Items[n+1:], par.Items[n:])
	par.Items[n] = val
}

// remove deletes the value at p, which exists.
func (a *applier) remove(p jsonval.Pointer) {
	par, tok := a.parent(p), p[len(p)-1]
	if par.Kind == jsonval.Array {
		n, _ := jsonval.ArrayIndex(tok)
		copy(par.Items[n:], par.Items[n+1:])
		par.Items[len(par.Items)-1] = nil
		par.Items = par.Items[:len(par.Items)-1]
		return
	}
	// An object loses a key, in place: par is this patch's own copy, which
	// carries no lookup index of its own (own makes none; put appends).
	k := a.member(par, tok)
	last := len(par.Keys) - 1
	copy(par.Keys[k:], par.Keys[k+1:])
	copy(par.Vals[k:], par.Vals[k+1:])
	par.Keys[last], par.Vals[last] = "", nil
	par.Keys, par.Vals = par.Keys[:last], par.Vals[:last]
	if ix := a.keys[par]; ix != nil {
		delete(ix.pos, tok)
		if ix.removed++; ix.removed > maxRemoved {
			delete(a.keys, par) // indexed again when next looked up
		}
	}
}
