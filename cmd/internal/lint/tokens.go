package lint

import (
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

// tokenFindings checks the token slots of every capability's input: a
// property named like an alias or placeholder field of the collections
// the capability applies to, but declared without x-pinhole-token, will
// reject that field's token; the author most likely meant a slot. (A
// slot's schema with value checks is no finding: the compiler refuses it,
// since prepare's answer would say whether the hidden value fits.)
func tokenFindings(plan *manifest.Plan) []Finding {
	var out []Finding
	for ci := range plan.Capabilities {
		c := &plan.Capabilities[ci]
		protected := map[string]*manifest.Field{} // property-like name -> the field
		for col := range plan.Collections {
			if !plan.AppliesTo(ci, col) {
				continue
			}
			for fi := range plan.Collections[col].Fields {
				f := &plan.Collections[col].Fields[fi]
				if f.Expose != manifest.Alias && f.Expose != manifest.Placeholder {
					continue
				}
				protected[strings.ToLower(f.Name)] = f
				if len(f.From) > 0 {
					protected[strings.ToLower(f.From[len(f.From)-1])] = f
				}
			}
		}
		at := "/capabilities/" + strconv.Itoa(ci) + "/input"
		walkSchema(c.Input, at, func(name string, s *jsonval.Value, sat string) {
			if s.Get(manifest.TokenKeyword) != nil {
				return
			}
			if f, ok := protected[strings.ToLower(name)]; ok {
				out = append(out, Finding{sat, "input property is named like the " + f.Expose.String() +
					" field " + strconv.Quote(f.Name) + " but is no token slot: prepare rejects that field's token here; declare " +
					manifest.TokenKeyword + " if the handler needs the value"})
			}
		})
	}
	return out
}

// walkSchema calls fn for every property schema under s (through
// properties and items), with the property's name and manifest place.
func walkSchema(s *jsonval.Value, at string, fn func(name string, s *jsonval.Value, at string)) {
	if s == nil || s.Kind != jsonval.Object {
		return
	}
	if props := s.Get("properties"); props != nil && props.Kind == jsonval.Object {
		for i, name := range props.Keys {
			pat := at + "/properties" + jsonval.Pointer{name}.String()
			if props.Vals[i].Kind == jsonval.Object {
				fn(name, props.Vals[i], pat)
			}
			walkSchema(props.Vals[i], pat, fn)
		}
	}
	if items := s.Get("items"); items != nil {
		walkSchema(items, at+"/items", fn)
	}
}
