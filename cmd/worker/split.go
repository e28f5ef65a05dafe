package main

import (
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// Bodies are split into their top-level parts without being parsed: a
// parsed JSON value takes many times the memory of its text, and the core
// parses every part again anyway. The splitters check the syntax of the
// enclosing array or object (brackets, commas, colons, strings, member
// names); each part is handed on as sent, and the core reports a part that
// is not valid JSON as it reports any bad request.

// splitArray returns the exact bytes of each element of a JSON array, and
// false when doc is not an array.
func splitArray(doc []byte) ([][]byte, bool) {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '[' {
		return nil, false
	}
	i = skipSpace(doc, i+1)
	items := [][]byte{}
	if i < len(doc) && doc[i] == ']' {
		return items, skipSpace(doc, i+1) == len(doc)
	}
	for {
		end, ok := skipValue(doc, i)
		if !ok {
			return nil, false
		}
		items = append(items, doc[i:end])
		if i = skipSpace(doc, end); i >= len(doc) {
			return nil, false
		}
		switch doc[i] {
		case ',':
			i = skipSpace(doc, i+1)
		case ']':
			return items, skipSpace(doc, i+1) == len(doc)
		default:
			return nil, false
		}
	}
}

// member is one member of an object: its decoded name and its value's text.
type member struct {
	name  string
	value []byte
}

var errNotObject = errors.New("the body must be a JSON object")

// splitObject returns the members of a JSON object, names decoded and
// values as sent. Duplicate names are refused, as the core's parser refuses
// them.
func splitObject(doc []byte) ([]member, error) {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return nil, errNotObject
	}
	i = skipSpace(doc, i+1)
	var ms []member
	if i < len(doc) && doc[i] == '}' {
		if skipSpace(doc, i+1) != len(doc) {
			return nil, errNotObject
		}
		return ms, nil
	}
	for {
		if i >= len(doc) || doc[i] != '"' {
			return nil, errors.New("the body is not valid JSON: a member name is not a string")
		}
		end, ok := skipValue(doc, i)
		if !ok {
			return nil, errors.New("the body is not valid JSON: an unterminated member name")
		}
		name, err := jsonval.Parse(doc[i:end])
		if err != nil {
			return nil, errors.New("the body is not valid JSON: a member name: " + err.Error())
		}
		for _, m := range ms {
			if m.name == name.S {
				return nil, errors.New("the body is not valid JSON: a member name appears twice")
			}
		}
		if i = skipSpace(doc, end); i >= len(doc) || doc[i] != ':' {
			return nil, errors.New("the body is not valid JSON: a member name without a colon")
		}
		i = skipSpace(doc, i+1)
		if end, ok = skipValue(doc, i); !ok {
			return nil, errors.New("the body is not valid JSON: a member has no complete value")
		}
		ms = append(ms, member{name.S, doc[i:end]})
		if i = skipSpace(doc, end); i >= len(doc) {
			return nil, errors.New("the body is not valid JSON: the object is not closed")
		}
		switch doc[i] {
		case ',':
			i = skipSpace(doc, i+1)
		case '}':
			if skipSpace(doc, i+1) != len(doc) {
				return nil, errors.New("the body is not valid JSON: text after the object")
			}
			return ms, nil
		default:
			return nil, errors.New("the body is not valid JSON: members must be separated by commas")
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\r' || doc[i] == '\n') {
		i++
	}
	return i
}

// skipValue returns the end of the value that starts at i: a string, an
// array or object with matching brackets (brackets inside strings do not
// count), or any other run of bytes up to the next delimiter. It reports
// false for an empty value, an unterminated string or unbalanced brackets.
func skipValue(doc []byte, i int) (int, bool) {
	var open []byte // the brackets not yet closed
	inStr, esc := false, false
	for j := i; j < len(doc); j++ {
		// Most of a body is string contents, or the inside of an array or
		// object where only quotes and brackets count: skip those a word
		// at a time.
		if inStr && !esc {
			j = jsonval.StringRun(doc, j)
		} else if !inStr && len(open) > 0 {
			j = bracketRun(doc, j)
		}
		if j == len(doc) {
			break
		}
		c := doc[j]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
				if len(open) == 0 {
					return j + 1, true
				}
			}
			continue
		}
		switch c {
		case '"':
			if len(open) == 0 && j > i {
				return 0, false // a string glued to a bare word
			}
			inStr = true
		case '[', '{':
			if len(open) == 0 && j > i {
				return 0, false
			}
			open = append(open, c)
		case ']', '}':
			if len(open) == 0 {
				return j, j > i
			}
			if (c == ']') != (open[len(open)-1] == '[') {
				return 0, false
			}
			if open = open[:len(open)-1]; len(open) == 0 {
				return j + 1, true
			}
		case ',', ':', ' ', '\t', '\r', '\n':
			if len(open) == 0 {
				return j, j > i
			}
		}
	}
	return 0, false
}

// bracketRun returns the index of the first quote or bracket at or after
// i in doc, or len(doc). It reads eight bytes a step: the top bit of each
// byte equal to one of the five is set in m ("has a zero byte" of the byte
// XOR the character), and the lowest such bit is the first of them.
func bracketRun(doc []byte, i int) int {
	const ones, top = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(doc); i += 8 {
		x := binary.LittleEndian.Uint64(doc[i:])
		q, a, b, c, d := x^(ones*'"'), x^(ones*'['), x^(ones*']'), x^(ones*'{'), x^(ones*'}')
		if m := ((q-ones)&^q | (a-ones)&^a | (b-ones)&^b | (c-ones)&^c | (d-ones)&^d) & top; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(doc); i++ {
		switch doc[i] {
		case '"', '[', ']', '{', '}':
			return i
		}
	}
	return i
}

// copiesInPatch reports whether a module request is an observe whose patch
// holds a copy operation. It reads the request with the splitters, so no
// parsed value of it is built; a request they cannot read is left to the
// core, which refuses it.
func copiesInPatch(req []byte) bool {
	ms, err := splitObject(req)
	if err != nil {
		return false
	}
	var op, patch []byte
	for _, m := range ms {
		switch m.name {
		case "op":
			op = m.value
		case "patch":
			patch = m.value
		}
	}
	if patch == nil || !isString(op, "observe") {
		return false
	}
	ops, ok := splitArray(patch)
	if !ok {
		return false
	}
	for _, o := range ops {
		members, err := splitObject(o)
		if err != nil {
			continue
		}
		for _, m := range members {
			if m.name == "op" && isString(m.value, "copy") {
				return true
			}
		}
	}
	return false
}

// isString reports whether raw is the JSON string s, however escaped.
func isString(raw []byte, s string) bool {
	if len(raw) == 0 || raw[0] != '"' || len(raw) > 8*len(s)+2 {
		return false
	}
	v, err := jsonval.Parse(raw)
	return err == nil && v.Kind == jsonval.String && v.S == s
}
