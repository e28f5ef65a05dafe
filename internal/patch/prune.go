package patch

import (
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
)

// Prune returns the operations of ops that can change what t declares: an
// operation whose path is not declared is dropped (nothing declared
// changes), and the value of an add, replace or test is pruned to what is
// declared below its path. Operations it cannot read are kept as they are,
// for Apply to reject. orig maps each kept operation to its index in ops,
// so errors can name the caller's operation. Move and copy take values from
// inside the document and are kept; ApplyDeclared prunes their result.
func Prune(t *prune.Tree, ops *jsonval.Value) (out *jsonval.Value, orig []int) {
	out, orig, _ = pruneOps(t, ops)
	return out, orig
}

// pruneOps is Prune; again reports whether the result of applying out must
// be pruned again as a whole: a move or copy, or a value that holds nothing
// declared (it stands in as null, which pruning then removes from an object
// or keeps as an array's null item, as pruning the whole state would).
func pruneOps(t *prune.Tree, ops *jsonval.Value) (out *jsonval.Value, orig []int, again bool) {
	if ops == nil || ops.Kind != jsonval.Array {
		return ops, nil, false
	}
	out = &jsonval.Value{Kind: jsonval.Array, Items: make([]*jsonval.Value, 0, len(ops.Items))}
	keep := func(i int, op *jsonval.Value) {
		out.Items = append(out.Items, op)
		orig = append(orig, i)
	}
	for i, op := range ops.Items {
		path := op.Get("path")
		if path == nil || path.Kind != jsonval.String || op.Get("from") != nil {
			again = again || op.Get("from") != nil
			keep(i, op)
			continue
		}
		ptr, err := jsonval.ParsePointer(path.S)
		if err != nil {
			keep(i, op)
			continue
		}
		node, below := t.At(ptr)
		if node == nil {
			continue // not declared: nothing declared changes
		}
		val := op.Get("value")
		if val == nil {
			keep(i, op)
			continue
		}
		var pv *jsonval.Value
		if below > 0 {
			// Inside a whole declared value: kept as it is; ApplyDeclared
			// checks the depth of the value it lands in.
			pv = val
		} else if pv = node.Value(val); pv == nil {
			pv, again = &jsonval.Value{Kind: jsonval.Null}, true
		}
		if pv == val {
			keep(i, op)
			continue
		}
		cp := &jsonval.Value{Kind: jsonval.Object, Keys: op.Keys, Vals: append([]*jsonval.Value(nil), op.Vals...)}
		for j, k := range cp.Keys {
			if k == "value" {
				cp.Vals[j] = pv
			}
		}
		keep(i, cp)
	}
	return out, orig, again
}

// ApplyDeclared applies a caller's patch to a declared state (one that t
// has pruned) and returns the new declared state: Prune's operations are
// applied, then a patch that moves or copies, or brings a value holding
// nothing declared, is pruned again as a whole,
// and a whole declared value an operation reached into is cut when it now
// nests deeper than prune.MaxDepth. What the patch may copy is bounded as
// in Apply. An error names the caller's operation. doc is never modified.
func ApplyDeclared(t *prune.Tree, doc, ops *jsonval.Value) (*jsonval.Value, *Error) {
	pruned, orig, again := pruneOps(t, ops)
	next, err := Apply(doc, pruned)
	if err != nil {
		if err.Index >= 0 && err.Index < len(orig) {
			err.Index = orig[err.Index] // name the caller's operation
		}
		return nil, err
	}
	// An operation into a collection that is not an array gives it members
	// that pruning the whole state would not keep.
	for _, op := range pruned.Items {
		if again {
			break
		}
		path := op.Get("path")
		if path == nil || path.Kind != jsonval.String {
			continue
		}
		if ptr, err := jsonval.ParsePointer(path.S); err == nil {
			for _, n := range t.Collections(ptr) {
				if v := ptr[:n].Resolve(next); v != nil && v.Kind != jsonval.Array {
					again = true
				}
			}
		}
	}
	if again {
		if next = t.State(next); next == nil {
			next = jsonval.NewObject()
		}
		return next, nil
	}
	// An operation inside a whole declared value may have made it too deep.
	var cuts []*jsonval.Value
	for _, op := range pruned.Items {
		path := op.Get("path")
		if path == nil || path.Kind != jsonval.String {
			continue
		}
		ptr, err := jsonval.ParsePointer(path.S)
		if err != nil {
			continue
		}
		_, below := t.At(ptr)
		if below == 0 {
			continue
		}
		whole := ptr[:len(ptr)-below]
		if v := whole.Resolve(next); v != nil && !prune.IsCut(v) && prune.TooDeep(v, 0) {
			cuts = append(cuts, &jsonval.Value{Kind: jsonval.Object, Keys: []string{"op", "path", "value"},
				Vals: []*jsonval.Value{{Kind: jsonval.String, S: "replace"}, {Kind: jsonval.String, S: whole.String()}, prune.Cut(prune.CutDepth)}})
		}
	}
	if len(cuts) == 0 {
		return next, nil
	}
	return Apply(next, &jsonval.Value{Kind: jsonval.Array, Items: cuts})
}
