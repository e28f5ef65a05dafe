package manifest

import (
	"strconv"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// maxShownEnum bounds the encoded enum list an invalid_input message
// repeats; a longer list is referred to, not quoted.
const maxShownEnum = 200

// CheckInput validates the input of an execution request, as the agent
// wrote it and before its tokens are resolved, against the capability's
// input schema (the subset schema.go admits). A nil input is checked as {}.
// A token slot's schema is not applied here: what a slot holds is checked
// by token resolution, and the value behind its token only by
// CheckResolved. The first fault is reported as invalid_input with Param
// the JSON Pointer of the offending place in the input ("" for the input
// itself). Messages name the rule and the schema's limit; they never quote
// a value of the input.
//
// Keywords apply only to values of their kind (minLength to strings,
// minimum to numbers, ...), as in JSON Schema. additionalProperties allows
// undeclared members unless it is false. Lengths count Unicode code points.
func (c *Capability) CheckInput(input *jsonval.Value) *wire.Error {
	if input == nil {
		input = jsonval.NewObject()
	}
	return checkSchema(c.Input, input, "")
}

// CheckResolved checks the input after its tokens were resolved: the value
// behind each slot's token must be of the slot's declared type. Nothing
// else of a resolved value is judged or walked, and the message names only
// the slot's pointer, so the answer says no more about the hidden value
// than whether it is of the type the application declared.
func (c *Capability) CheckResolved(resolved *jsonval.Value) *wire.Error {
	for i := range c.Slots {
		s := &c.Slots[i]
		if s.Type == "" {
			continue
		}
		if v := s.At.Resolve(resolved); v != nil && !hasType(v, s.Type) {
			return inputError(s.At.String(), "the value behind this token is not "+withArticle(s.Type))
		}
	}
	return nil
}

// withArticle returns a JSON Schema type name with its indefinite article.
func withArticle(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}

// join is the pointer of member key inside the value at pointer at.
func join(at, key string) string {
	return at + "/" + jsonval.EscapeToken(key)
}

func inputError(at, msg string) *wire.Error {
	return wire.NewError(wire.CodeInvalidInput, "input"+at+": "+msg, at)
}

func checkSchema(s, v *jsonval.Value, at string) *wire.Error {
	if s.Get(TokenKeyword) != nil {
		return nil // a token slot: resolution checks it
	}
	if t := s.Get("type"); t != nil && !hasType(v, t.S) {
		return inputError(at, "must be of type "+t.S)
	}
	if e := s.Get("enum"); e != nil {
		ok := false
		for _, it := range e.Items {
			if jsonval.Equal(v, it) {
				ok = true
				break
			}
		}
		if !ok {
			list := jsonval.Marshal(e)
			if len(list) > maxShownEnum {
				return inputError(at, "must be one of the "+strconv.Itoa(len(e.Items))+" values the schema lists (enum)")
			}
			return inputError(at, "must be one of "+string(list)+" (enum)")
		}
	}
	switch v.Kind {
	case jsonval.Number:
		// Exactly, as decimals: as float64, 9007199254740993 would pass a
		// maximum of 9007199254740992, and 1e500 one of 1e400.
		if m := s.Get("minimum"); m != nil && jsonval.CompareNumbers(v.S, m.S) < 0 {
			return inputError(at, "must be at least "+m.S+" (minimum)")
		}
		if m := s.Get("maximum"); m != nil && jsonval.CompareNumbers(v.S, m.S) > 0 {
			return inputError(at, "must be at most "+m.S+" (maximum)")
		}
	case jsonval.String:
		n := utf8.RuneCountInString(v.S)
		if m := s.Get("minLength"); m != nil {
			if min, _ := m.Float(); float64(n) < min {
				return inputError(at, "must be at least "+m.S+" characters long (minLength)")
			}
		}
		if m := s.Get("maxLength"); m != nil {
			if max, _ := m.Float(); float64(n) > max {
				return inputError(at, "must be at most "+m.S+" characters long (maxLength)")
			}
		}
	case jsonval.Array:
		n := float64(len(v.Items))
		if m := s.Get("minItems"); m != nil {
			if min, _ := m.Float(); n < min {
				return inputError(at, "must hold at least "+m.S+" items (minItems)")
			}
		}
		if m := s.Get("maxItems"); m != nil {
			if max, _ := m.Float(); n > max {
				return inputError(at, "must hold at most "+m.S+" items (maxItems)")
			}
		}
		if items := s.Get("items"); items != nil {
			for i, it := range v.Items {
				if err := checkSchema(items, it, at+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		}
	case jsonval.Object:
		return checkObject(s, v, at)
	}
	return nil
}

func checkObject(s, v *jsonval.Value, at string) *wire.Error {
	props := s.Get("properties")
	if req := s.Get("required"); req != nil {
		for _, name := range req.Items {
			if v.Get(name.S) == nil {
				return inputError(join(at, name.S), "is required")
			}
		}
	}
	closed := false
	if ap := s.Get("additionalProperties"); ap != nil && !ap.B {
		closed = true
	}
	for i, k := range v.Keys {
		ps := props.Get(k)
		if ps == nil {
			if closed {
				return undeclared(at, k)
			}
			continue
		}
		if err := checkSchema(ps, v.Vals[i], join(at, k)); err != nil {
			return err
		}
	}
	return nil
}

// undeclared reports a member the schema does not allow. The name was
// written by the caller, not taken from the state, so it may be named;
// one that is long or looks like a credential is only counted.
func undeclared(at, key string) *wire.Error {
	if expose.Nameable(key) {
		return inputError(join(at, key), "is not a declared property (additionalProperties is false)")
	}
	return inputError(at, "has a member that is not a declared property (additionalProperties is false)")
}

// hasType reports whether v is of the JSON Schema type t. An integer is a
// number with no fractional part, however it is written (1, 1.0, 1e2,
// 1e400).
func hasType(v *jsonval.Value, t string) bool {
	switch t {
	case "object":
		return v.Kind == jsonval.Object
	case "array":
		return v.Kind == jsonval.Array
	case "string":
		return v.Kind == jsonval.String
	case "number":
		return v.Kind == jsonval.Number
	case "integer":
		return v.Integral()
	case "boolean":
		return v.Kind == jsonval.Bool
	case "null":
		return v.Kind == jsonval.Null
	}
	return false
}
