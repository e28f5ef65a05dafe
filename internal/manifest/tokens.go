package manifest

import (
	"slices"
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
)

// TokenKeyword is the input schema keyword that makes a property a token
// slot: {"x-pinhole-token": {"field": NAME, "record": "request"|"token"}}.
const TokenKeyword = "x-pinhole-token"

// TokenSlot is a property of a capability's input that takes the alias or
// placeholder of one declared field. Everywhere else prepare rejects
// tokens.
type TokenSlot struct {
	// At is the JSON Pointer of the property in the input; At is also the
	// schema place: the member names on the way through "properties".
	At jsonval.Pointer
	// Field is the name of the record field whose token the slot takes.
	Field string
	// Expose is Alias or Placeholder: the field's mode in every collection
	// the capability applies to that declares it.
	Expose Expose
	// ByToken is true when the token chooses the record (page scope,
	// "record": "token"): the slot resolves for a referenceable record of
	// the capability's collections whose field holds the token's value.
	// Otherwise (record scope) only the record the request names counts.
	ByToken bool
	// Type is the slot schema's "type", "" if it has none: the kind the
	// value behind the token must be (Capability.CheckResolved).
	Type string
}

// slotKeys are the only keywords a token slot's schema may hold. Any
// value check (enum, minimum, minLength, ...) would make prepare's answer
// say whether the hidden value fits it, and properties, required or
// additionalProperties would walk the hidden value and name its keys.
var slotKeys = []string{"type", "description", "title", TokenKeyword}

// ExposeSlot returns the expose.Slot of s.
func (s *TokenSlot) ExposeSlot() expose.Slot {
	if s.Expose == Alias {
		return expose.Slot{At: s.At, Prefix: expose.AliasPrefix}
	}
	return expose.Slot{At: s.At, Prefix: expose.PlaceholderPrefix}
}

// tokenSlots finds the token slots of capability cp (compiled at at) in its
// input schema and checks them: a slot is a property reached from the input
// object through "properties" only (not the input itself, not inside
// "items"); it names a field that the collections the capability applies to
// declare, as alias or placeholder; its schema holds no keyword but
// type, description and title (slotKeys); record scope takes tokens of the
// request's record ("record" omitted or "request"), page scope must say
// "record": "token".
func (c *compiler) tokenSlots(cp *Capability, at loc) {
	if c.err != nil || cp.Input == nil {
		return
	}
	c.findSlotsIn(cp, cp.Input, at.in("input"), path(""), true, true)
}

// findSlotsIn walks schema s at manifest place at; in is the place in the
// input the schema describes, direct is false once the walk went through
// "items", and root is true for the input object itself.
func (c *compiler) findSlotsIn(cp *Capability, s *jsonval.Value, at, in loc, direct, root bool) {
	if c.err != nil || s == nil || s.Kind != jsonval.Object {
		return
	}
	if tk := s.Get(TokenKeyword); tk != nil {
		kat := at.in(TokenKeyword)
		switch {
		case root:
			c.fail(kat, "the input itself cannot be a token slot; declare the slot on a property")
			return
		case !direct:
			c.fail(kat, "a token slot cannot be inside an array (items); declare it on a property of an object")
			return
		}
		for _, k := range s.Keys {
			if !slices.Contains(slotKeys, k) {
				c.fail(at.in(k), "a token slot's schema holds only type, description, title and "+TokenKeyword+
					": "+k+" would check or walk the hidden value behind the token")
				return
			}
		}
		c.slot(cp, tk, kat, c.pointer(&in))
		if c.err != nil {
			return
		}
		if t := s.Get("type"); t != nil {
			cp.Slots[len(cp.Slots)-1].Type = t.S
		}
		return
	}
	if props := s.Get("properties"); props != nil && props.Kind == jsonval.Object {
		pat := at.in("properties")
		for i, name := range props.Keys {
			c.findSlotsIn(cp, props.Vals[i], pat.in(name), in.in(name), direct, false)
		}
	}
	if items := s.Get("items"); items != nil {
		c.findSlotsIn(cp, items, at.in("items"), in, false, false)
	}
}

// slot compiles one x-pinhole-token value at manifest place at.
func (c *compiler) slot(cp *Capability, v *jsonval.Value, at loc, path jsonval.Pointer) {
	if !c.object(v, at, []string{"field"}, "record") {
		return
	}
	name := c.str(v.Get("field"), at.in("field"), maxNameChars)
	if c.err != nil {
		return
	}
	slot := TokenSlot{At: path, Field: name}
	switch r := v.Get("record"); {
	case r == nil && cp.Record:
	case r == nil:
		c.fail(at.in("record"), `is required in a page-scope capability: "token" (the token chooses the record)`)
		return
	default:
		switch c.str(r, at.in("record"), maxNameChars) {
		case "request":
			if !cp.Record {
				c.fail(at.in("record"), `"request" needs a record-scope capability; a page-scope capability takes "token"`)
				return
			}
		case "token":
			if cp.Record {
				c.fail(at.in("record"), `"token" is for page-scope capabilities; a record-scope capability resolves tokens of the record it acts on only ("request")`)
				return
			}
			slot.ByToken = true
		default:
			if c.err == nil {
				c.fail(at.in("record"), `must be "request" (record scope) or "token" (page scope)`)
			}
			return
		}
	}
	mode, found := Plain, false
	for ci := range c.plan.Collections {
		if !c.plan.appliesTo(cp, ci) {
			continue
		}
		for _, f := range c.plan.Collections[ci].Fields {
			if f.Name != name {
				continue
			}
			if f.Expose != Alias && f.Expose != Placeholder {
				c.fail(at.in("field"), "names a field that /collections/"+strconv.Itoa(ci)+" exposes "+f.Expose.String()+
					"; a token slot takes an alias or placeholder field")
				return
			}
			if found && f.Expose != mode {
				c.fail(at.in("field"), "names a field that is an alias in one collection and a placeholder in another")
				return
			}
			mode, found = f.Expose, true
		}
	}
	if !found {
		c.fail(at.in("field"), "names no field of the collections this capability applies to")
		return
	}
	slot.Expose = mode
	cp.Slots = append(cp.Slots, slot)
}
