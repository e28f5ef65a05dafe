package draft

import "github.com/pinholectx/pinhole/internal/jsonval"

// appendIndented writes v as JSON indented by two spaces, in the style of
// the repository's manifests: an object of up to four members that are all
// scalars or lists of scalars, and a list of scalars, stay on one line.
func appendIndented(dst []byte, v *jsonval.Value, indent string) []byte {
	switch {
	case v.Kind == jsonval.Object && flat(v) && len(v.Keys) <= 4:
		dst = append(dst, '{')
		for i, k := range v.Keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = jsonval.AppendString(dst, k)
			dst = append(dst, ": "...)
			dst = appendIndented(dst, v.Vals[i], indent)
		}
		return append(dst, '}')
	case v.Kind == jsonval.Array && scalars(v):
		dst = append(dst, '[')
		for i, it := range v.Items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = jsonval.Append(dst, it)
		}
		return append(dst, ']')
	case v.Kind == jsonval.Object:
		dst = append(dst, "{\n"...)
		for i, k := range v.Keys {
			dst = append(dst, indent+"  "...)
			dst = jsonval.AppendString(dst, k)
			dst = append(dst, ": "...)
			dst = appendIndented(dst, v.Vals[i], indent+"  ")
			if i < len(v.Keys)-1 {
				dst = append(dst, ',')
			}
			dst = append(dst, '\n')
		}
		return append(append(dst, indent...), '}')
	case v.Kind == jsonval.Array:
		dst = append(dst, "[\n"...)
		for i, it := range v.Items {
			dst = append(dst, indent+"  "...)
			dst = appendIndented(dst, it, indent+"  ")
			if i < len(v.Items)-1 {
				dst = append(dst, ',')
			}
			dst = append(dst, '\n')
		}
		return append(append(dst, indent...), ']')
	}
	return jsonval.Append(dst, v)
}

// flat reports whether every member of an object is a scalar or a list of
// scalars.
func flat(v *jsonval.Value) bool {
	for _, m := range v.Vals {
		if m.Kind == jsonval.Object || m.Kind == jsonval.Array && !scalars(m) {
			return false
		}
	}
	return true
}
