package manifest

import (
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
)

// Op is a condition operator.
type Op uint8

// The operators of the condition language.
const (
	OpEq Op = iota
	OpNe
	OpIn
	OpNotIn
	OpLt
	OpLte
	OpGt
	OpGte
	OpExists
	OpAll
	OpAny
	OpNot
)

// opNames are the operators' names in a manifest, indexed by Op. A slice
// rather than a map: a map literal is built by code at start-up.
var opNames = [...]string{OpEq: "eq", OpNe: "ne", OpIn: "in", OpNotIn: "notIn",
	OpLt: "lt", OpLte: "lte", OpGt: "gt", OpGte: "gte", OpExists: "exists",
	OpAll: "all", OpAny: "any", OpNot: "not"}

// opNamed returns the operator named name.
func opNamed(name string) (Op, bool) {
	for op, n := range opNames {
		if n == name {
			return Op(op), true
		}
	}
	return 0, false
}

// Cond is a compiled condition. A leaf reads one value, from the store root
// (Path) or from the record being judged (Field), and compares it with Arg.
type Cond struct {
	Op    Op
	Field bool
	Ptr   jsonval.Pointer
	Arg   *jsonval.Value
	Sub   []*Cond
}

// Eval reports whether the condition holds for the store root and, for
// field conditions, the record item (nil outside a record: field conditions
// then see a missing value).
func (c *Cond) Eval(root, item *jsonval.Value) bool {
	switch c.Op {
	case OpAll:
		for _, s := range c.Sub {
			if !s.Eval(root, item) {
				return false
			}
		}
		return true
	case OpAny:
		for _, s := range c.Sub {
			if s.Eval(root, item) {
				return true
			}
		}
		return false
	case OpNot:
		return !c.Sub[0].Eval(root, item)
	}
	// A value inside a cut one is cut too (prune.Lookup): present, and
	// equal to nothing, as the cut value itself.
	var v *jsonval.Value
	if c.Field {
		if item != nil {
			v = prune.Lookup(item, c.Ptr)
		}
	} else {
		v = prune.Lookup(root, c.Ptr)
	}
	switch c.Op {
	case OpExists:
		return (v != nil && v.Kind != jsonval.Null) == c.Arg.B
	case OpEq:
		return v != nil && jsonval.Equal(v, c.Arg)
	case OpNe:
		return v == nil || !jsonval.Equal(v, c.Arg)
	case OpIn, OpNotIn:
		in := false
		if v != nil {
			for _, a := range c.Arg.Items {
				if jsonval.Equal(v, a) {
					in = true
					break
				}
			}
		}
		return in == (c.Op == OpIn)
	}
	// Ordering: numbers by value, strings by code points; anything else, or
	// mixed kinds, is false.
	cmp, ok := compare(v, c.Arg)
	if !ok {
		return false
	}
	switch c.Op {
	case OpLt:
		return cmp < 0
	case OpLte:
		return cmp <= 0
	case OpGt:
		return cmp > 0
	default: // OpGte
		return cmp >= 0
	}
}

func compare(a, b *jsonval.Value) (int, bool) {
	if a == nil || b == nil || a.Kind != b.Kind {
		return 0, false
	}
	switch a.Kind {
	case jsonval.Number:
		return jsonval.CompareNumbers(a.S, b.S), true // exactly, as decimals
	case jsonval.String:
		switch {
		case a.S < b.S:
			return -1, true
		case a.S > b.S:
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// visit calls fn for every leaf of c.
func (c *Cond) visit(fn func(*Cond)) {
	if c == nil {
		return
	}
	if len(c.Sub) > 0 {
		for _, s := range c.Sub {
			s.visit(fn)
		}
		return
	}
	fn(c)
}
