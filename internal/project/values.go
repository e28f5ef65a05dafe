package project

import (
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// outcome of projecting one plain value.
type outcome struct {
	json      wire.Raw
	origLen   int  // original length in characters when cut
	truncated bool // the value was cut (strings) or dropped (composites)
	redacted  bool // the credential safety net replaced it
}

var (
	redactedJSON = wire.Raw(jsonval.AppendString(nil, expose.Redacted))
	nullJSON     = wire.Raw("null")
)

// plain projects a value shown as it is: strings cleaned, checked by the
// credential net and cut at max characters; a composite value whose encoding
// is longer than max characters is replaced by null and reported as cut.
func plain(v *jsonval.Value, max int) outcome {
	switch v.Kind {
	case jsonval.String:
		if expose.IsCredential(v.S) {
			return outcome{json: redactedJSON, redacted: true}
		}
		s, n, cut := expose.Truncate(expose.Clean(v.S), max)
		return outcome{json: jsonval.AppendString(nil, s), origLen: n, truncated: cut}
	case jsonval.Array, jsonval.Object:
		if containsCredential(v) {
			return outcome{json: redactedJSON, redacted: true}
		}
		b := appendClean(nil, v)
		if n := utf8.RuneCount(b); n > max {
			return outcome{json: nullJSON, origLen: n, truncated: true}
		}
		return outcome{json: b}
	}
	return outcome{json: jsonval.Marshal(v)}
}

func containsCredential(v *jsonval.Value) bool {
	switch v.Kind {
	case jsonval.String:
		return expose.IsCredential(v.S)
	case jsonval.Array:
		for _, it := range v.Items {
			if containsCredential(it) {
				return true
			}
		}
	case jsonval.Object:
		for i, k := range v.Keys {
			if expose.IsCredential(k) || containsCredential(v.Vals[i]) {
				return true
			}
		}
	}
	return false
}

// appendClean encodes v with every string and key cleaned of invisible
// characters.
func appendClean(dst []byte, v *jsonval.Value) []byte {
	switch v.Kind {
	case jsonval.String:
		return jsonval.AppendString(dst, expose.Clean(v.S))
	case jsonval.Array:
		dst = append(dst, '[')
		for i, it := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendClean(dst, it)
		}
		return append(dst, ']')
	case jsonval.Object:
		dst = append(dst, '{')
		for i, k := range v.Keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonval.AppendString(dst, expose.Clean(k))
			dst = append(dst, ':')
			dst = appendClean(dst, v.Vals[i])
		}
		return append(dst, '}')
	}
	return jsonval.Append(dst, v)
}

// field projects one record field into rec according to its exposure.
func field(rec *wire.Record, f *manifest.Field, v *jsonval.Value, maxChars int, k *expose.Keyer) {
	if v == nil {
		return // absent, not null: the field is omitted
	}
	if f.UserContent {
		rec.UserContent = append(rec.UserContent, f.Name)
	}
	if v.Kind == jsonval.Null {
		rec.Fields = append(rec.Fields, wire.Member{Key: f.Name, Value: nullJSON})
		return
	}
	if prune.IsCut(v) {
		// Left out before it reached the module, or by its pruning: never
		// masked, aliased or shown as if it were the value.
		rec.Fields = append(rec.Fields, wire.Member{Key: f.Name, Value: nullJSON})
		rec.Cut = append(rec.Cut, f.Name)
		return
	}
	var out wire.Raw
	switch f.Expose {
	case manifest.Mask:
		text := "•••"
		switch {
		case v.Kind == jsonval.String && expose.IsCredential(v.S):
			text = expose.Redacted
			rec.Redacted = append(rec.Redacted, f.Name)
		case v.Kind == jsonval.String || v.Kind == jsonval.Number:
			text = expose.Mask(v.S)
		}
		out = jsonval.AppendString(nil, text)
	case manifest.Alias:
		out = jsonval.AppendString(nil, k.Alias(v))
	case manifest.Placeholder:
		out = append(append([]byte(`{"$placeholder":`), jsonval.AppendString(nil, k.Placeholder(v))...), '}')
	default:
		max := maxChars
		if f.MaxChars > 0 {
			max = f.MaxChars
		}
		o := plain(v, max)
		out = o.json
		if o.redacted {
			rec.Redacted = append(rec.Redacted, f.Name)
		}
		if o.truncated {
			rec.Truncated = append(rec.Truncated, wire.Count{Key: f.Name, N: o.origLen})
		}
	}
	rec.Fields = append(rec.Fields, wire.Member{Key: f.Name, Value: out})
}
