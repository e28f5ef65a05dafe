// Package jsonval holds a small, strict JSON value tree: the parser the module
// uses for everything it is handed (manifests, states, patches, requests), a
// canonical encoder, and RFC 6901 JSON Pointers into the tree.
//
// The parser is strict on purpose. It rejects invalid UTF-8, duplicate object
// keys (two parsers could disagree on which one wins) and nesting deeper than
// MaxDepth, and it never panics on any input. Numbers are kept as their
// literal text, so a value such as 1e400 survives a round trip unchanged.
// Error messages carry byte offsets, never the text of the input.
package jsonval

import (
	"slices"
	"strconv"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// MaxDepth is how deeply arrays and objects may nest before Parse gives up.
const MaxDepth = 512

// Value is one node of a parsed JSON document. Values are treated as
// immutable once parsed; functions that change a document copy the nodes
// they touch.
type Value struct {
	Kind Kind
	// B is the value of a Bool.
	B bool
	// S is the decoded text of a String, or the literal text of a Number.
	S string
	// Items are the elements of an Array.
	Items []*Value
	// Keys and Vals are the members of an Object, in document order.
	Keys []string
	Vals []*Value

	index map[string]int // key positions of large objects, built by Parse
}

// indexMin is the member count from which Parse indexes an object's keys.
// Get never writes, so parsed values are safe to share between goroutines.
const indexMin = 32

// Get returns the member named key of an Object, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	if v.index != nil {
		return v.getIndexed(key)
	}
	if i := slices.Index(v.Keys, key); i >= 0 {
		return v.Vals[i]
	}
	return nil
}

// getIndexed is Get through the index of a large object. The index is a
// hint: code that edits Keys directly (a patch on a copied node) may have
// moved members, so a position is checked and a miss falls back to a scan.
func (v *Value) getIndexed(key string) *Value {
	if i, ok := v.index[key]; ok && i < len(v.Keys) && v.Keys[i] == key {
		return v.Vals[i]
	}
	if i := slices.Index(v.Keys, key); i >= 0 {
		return v.Vals[i]
	}
	return nil
}

// Float returns the value of a Number as a float64 (±Inf when out of range)
// and whether v is a Number.
func (v *Value) Float() (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.S, 64)
	if err != nil {
		// Only range errors are possible for a validated literal; ParseFloat
		// then returns ±Inf, which is the useful answer for comparisons.
		return f, true
	}
	return f, true
}

// IsInteger reports whether v is a Number written without fraction or
// exponent.
func (v *Value) IsInteger() bool {
	if v == nil || v.Kind != Number {
		return false
	}
	for i := 0; i < len(v.S); i++ {
		c := v.S[i]
		if c != '-' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Equal reports whether a and b are the same JSON value. Numbers compare by
// value, objects by members regardless of order.
func Equal(a, b *Value) bool {
	if a == b {
		return true // shared nodes: patched documents share what they did not touch
	}
	if a == nil || b == nil {
		return false
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.B == b.B
	case String:
		return a.S == b.S
	case Number:
		return a.S == b.S || CompareNumbers(a.S, b.S) == 0
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			if !Equal(a.Vals[i], b.Get(k)) {
				return false
			}
		}
		return true
	}
	return false
}

// Same reports whether a and b are written the same: Marshal(a) equals
// Marshal(b), found without encoding. Numbers compare as written (1 and
// 1.0 differ), objects by members in order. A token stands for a value as
// written (expose.Keyer), so whatever decides which value a token stands
// for, or whether it changed, compares with Same, not Equal.
func Same(a, b *Value) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.B == b.B
	case String, Number:
		return a.S == b.S
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Same(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			if b.Keys[i] != k || !Same(a.Vals[i], b.Vals[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// NewString returns a String value.
func NewString(s string) *Value { return &Value{Kind: String, S: s} }

// NewObject returns an empty Object value.
func NewObject() *Value { return &Value{Kind: Object} }

// Set adds or replaces the member key of an Object in place. It is meant for
// building new values, not for changing parsed ones.
func (v *Value) Set(key string, val *Value) {
	for i, k := range v.Keys {
		if k == key {
			v.Vals[i] = val
			return
		}
	}
	v.Keys = append(v.Keys, key)
	v.Vals = append(v.Vals, val)
	if v.index != nil {
		v.index[key] = len(v.Keys) - 1
	} else if len(v.Keys) > indexMin {
		v.index = make(map[string]int, len(v.Keys))
		for i, k := range v.Keys {
			v.index[k] = i
		}
	}
}
