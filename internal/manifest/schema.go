package manifest

import (
	"math"
	"slices"
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// The subset of JSON Schema a capability input may use. Anything else is
// rejected at load time, so that what the agent is shown is exactly what
// prepare checks.
var schemaKeys = []string{"type", "description", "title", "properties", "required",
	"additionalProperties", "enum", "minimum", "maximum", "minLength", "maxLength",
	"items", "minItems", "maxItems", TokenKeyword}

var schemaTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

const maxSchemaDepth = 16

func (c *compiler) schema(v *jsonval.Value, at loc, depth int) {
	if depth > maxSchemaDepth {
		c.fail(at, "input schema nests deeper than "+strconv.Itoa(maxSchemaDepth)+" levels")
		return
	}
	if !c.object(v, at, nil, schemaKeys...) {
		return
	}
	for i, k := range v.Keys {
		c.keyword(k, v.Vals[i], at.in(k), depth)
	}
}

// keyword checks the schema keyword k, whose value s is at kat.
func (c *compiler) keyword(k string, s *jsonval.Value, kat loc, depth int) {
	switch k {
	case "type":
		if s.Kind != jsonval.String || !slices.Contains(schemaTypes, s.S) {
			c.fail(kat, "must be one of object, array, string, number, integer, boolean, null")
		}
	case "description", "title":
		c.str(s, kat, maxTextChars)
	case "properties":
		if c.object(s, kat, nil, s.Keys...) {
			for j, name := range s.Keys {
				c.schema(s.Vals[j], kat.in(name), depth+1)
			}
		}
	case "required":
		// Any property name, as in properties: the names are the
		// caller's input keys, not text shown as the manifest's own.
		if s.Kind != jsonval.Array {
			c.fail(kat, "must be an array of property names")
			return
		}
		for j, it := range s.Items {
			if it.Kind != jsonval.String {
				c.fail(kat.item(j), "must be a string")
			}
		}
	case "additionalProperties":
		if s.Kind != jsonval.Bool {
			c.fail(kat, "must be true or false")
		}
	case "enum":
		if s.Kind != jsonval.Array || len(s.Items) == 0 {
			c.fail(kat, "must be a non-empty array")
		}
	case "minimum", "maximum":
		if s.Kind != jsonval.Number {
			c.fail(kat, "must be a number")
		}
	case "minLength", "maxLength", "minItems", "maxItems":
		if n, ok := wholeNumber(s); !ok || n < 0 {
			c.fail(kat, "must be a non-negative integer")
		}
	case "items":
		c.schema(s, kat, depth+1)
	}
}

// wholeNumber returns the value of a number with no fractional part,
// however it is written (2, 2.0, 2e0), as JSON Schema counts integers. A
// number beyond ±2^53, where float64 stops counting exactly, is not one.
func wholeNumber(v *jsonval.Value) (float64, bool) {
	if v == nil || v.Kind != jsonval.Number {
		return 0, false
	}
	if n, ok := jsonval.ArrayIndex(v.S); ok {
		return float64(n), true // plain digits, the usual case: no float parsing
	}
	f, ok := v.Float()
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return f, true
}
