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
	"strings"
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
		return a.S == b.S || sameNumber(a.S, b.S)
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

// sameNumber reports whether two JSON number literals are the same number,
// exactly: "1", "1.0", "10e-1" and "0.1E1" are; 9007199254740993 and
// 9007199254740992, which are one float64, are not. Each literal is read as
// sign, significant digits and the exponent of its first digit. An
// exponent too long to count (more than 15 digits) is left to float64.
func sameNumber(a, b string) bool {
	na, ok1 := decimalOf(a)
	nb, ok2 := decimalOf(b)
	if !ok1 || !ok2 {
		fa, _ := (&Value{Kind: Number, S: a}).Float()
		fb, _ := (&Value{Kind: Number, S: b}).Float()
		return fa == fb
	}
	return na == nb
}

// decimal is a number as sign, significant digits (no leading or trailing
// zeros; "" for zero, whose sign is dropped) and the power of ten of the
// place just left of the first digit: 0.d1d2… × 10^exp.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// decimalOf reads a valid JSON number literal.
func decimalOf(s string) (decimal, bool) {
	var d decimal
	if s != "" && s[0] == '-' {
		d.neg, s = true, s[1:]
	}
	mant, e := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, e = s[:i], s[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	var exp int64
	if e != "" {
		neg := e[0] == '-'
		if e[0] == '-' || e[0] == '+' {
			e = e[1:]
		}
		e = strings.TrimLeft(e, "0")
		if len(e) > 15 {
			return d, false
		}
		for i := 0; i < len(e); i++ {
			exp = exp*10 + int64(e[i]-'0')
		}
		if neg {
			exp = -exp
		}
	}
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	d.digits = strings.TrimRight(all[lead:], "0")
	if d.digits == "" {
		return decimal{}, true // zero, either sign
	}
	d.exp = exp + int64(len(intPart)) - int64(lead)
	return d, true
}
