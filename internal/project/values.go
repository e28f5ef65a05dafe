package project

import (
	"strings"
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
	// redactedJSON is expose.Redacted as a JSON string: a constant, so that
	// no encoder runs at start-up (values_test.go checks it).
	redactedJSON = wire.Raw(`"` + expose.Redacted + `"`)
	nullJSON     = wire.Raw("null")
)

// plain projects a value shown as it is: strings cleaned, checked by the
// credential net and cut at max characters; a composite value whose encoding
// is longer than max characters is replaced by null and reported as cut.
// A composite value is encoded only as far as it can still fit; past that
// its length is counted, so a large value costs a walk, not its encoding.
// secretName is the manifest's name of the value (a field, a state key, a
// page param) when expose.SecretName accepts it, else "": a value under a
// secret name is judged as one given under that name ({"password": "…"}),
// as a composite's members are.
func plain(v *jsonval.Value, max int, secretName string) outcome {
	switch v.Kind {
	case jsonval.String:
		if expose.IsCredential(v.S) || secretName != "" && expose.IsCredentialUnder(secretName, v.S) {
			return outcome{json: redactedJSON, redacted: true}
		}
		s, n, cut := expose.Truncate(expose.Clean(v.S), max)
		return outcome{json: jsonval.AppendString(nil, s), origLen: n, truncated: cut}
	case jsonval.Array, jsonval.Object:
		if containsCredential(v) {
			return outcome{json: redactedJSON, redacted: true}
		}
		// A character is at most 4 bytes: past 4*max bytes it cannot fit.
		r := cleanWriter{limit: 4 * max}
		r.value(v)
		if n := r.chars(); n > max {
			return outcome{json: nullJSON, origLen: n, truncated: true}
		}
		return outcome{json: r.dst}
	case jsonval.Number:
		if secretName != "" && expose.IsCredentialUnder(secretName, v.S) {
			return outcome{json: redactedJSON, redacted: true}
		}
		// A number is as bounded as a composite: a literal longer than max
		// characters (the store's own JSON can hold one of any length) is
		// null and truncated, as a composite past max is.
		j := jsonval.Marshal(v)
		if len(j) > max {
			return outcome{json: nullJSON, origLen: len(j), truncated: true}
		}
		return outcome{json: j}
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
			m := v.Vals[i]
			if expose.IsCredential(k) || containsCredential(m) || scalar(m) && expose.IsCredentialMember(k, m.S) {
				return true
			}
		}
		// A name/value entry ({"name": "DB_PASSWORD", "value": "…"}: a
		// Kubernetes env entry, a settings list) is a member written out,
		// whichever of its name and key names the secret.
		if val := memberNamed(v, "value"); val != nil && scalar(val) {
			for _, by := range [...]string{"name", "key"} {
				if n := memberNamed(v, by); n != nil && n.Kind == jsonval.String && expose.IsCredentialMember(n.S, val.S) {
					return true
				}
			}
		}
	}
	return false
}

// secretNamed is name when secret, else "" (plain's secretName).
func secretNamed(name string, secret bool) string {
	if secret {
		return name
	}
	return ""
}

// scalar reports whether v is a string or a number, whose text is v.S.
func scalar(v *jsonval.Value) bool { return v.Kind == jsonval.String || v.Kind == jsonval.Number }

// memberNamed returns the member of object v named name, in any case, or
// nil.
func memberNamed(v *jsonval.Value, name string) *jsonval.Value {
	for i, k := range v.Keys {
		if strings.EqualFold(k, name) {
			return v.Vals[i]
		}
	}
	return nil
}

// cleanWriter encodes a value with every string and key cleaned of
// invisible characters, keeping at most limit bytes of the encoding: once
// it is longer, the writer drops it and only counts its characters.
type cleanWriter struct {
	dst     []byte
	limit   int
	over    bool
	n       int    // characters, once over
	scratch []byte // one string's encoding, once over
}

// chars returns the length of the whole encoding in characters.
func (w *cleanWriter) chars() int {
	if w.over {
		return w.n
	}
	return utf8.RuneCount(w.dst)
}

// byte writes one ASCII character.
func (w *cleanWriter) byte(c byte) {
	if w.over {
		w.n++
		return
	}
	w.dst = append(w.dst, c)
	w.check()
}

// string writes s cleaned and encoded.
func (w *cleanWriter) string(s string) {
	if w.over {
		w.scratch = jsonval.AppendString(w.scratch[:0], expose.Clean(s))
		w.n += utf8.RuneCount(w.scratch)
		return
	}
	w.dst = jsonval.AppendString(w.dst, expose.Clean(s))
	w.check()
}

// check drops the encoding once it passes the limit.
func (w *cleanWriter) check() {
	if len(w.dst) > w.limit {
		w.over, w.n, w.dst = true, utf8.RuneCount(w.dst), nil
	}
}

func (w *cleanWriter) value(v *jsonval.Value) {
	switch v.Kind {
	case jsonval.String:
		w.string(v.S)
	case jsonval.Array:
		w.byte('[')
		for i, it := range v.Items {
			if i > 0 {
				w.byte(',')
			}
			w.value(it)
		}
		w.byte(']')
	case jsonval.Object:
		w.byte('{')
		for i, k := range v.Keys {
			if i > 0 {
				w.byte(',')
			}
			w.string(k)
			w.byte(':')
			w.value(v.Vals[i])
		}
		w.byte('}')
	default:
		if w.over {
			w.scratch = jsonval.Append(w.scratch[:0], v)
			w.n += utf8.RuneCount(w.scratch)
			return
		}
		w.dst = jsonval.Append(w.dst, v)
		w.check()
	}
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
		// The credential net judges what the mask shows, not the value:
		// judged whole, an e-mail address whose local part is key-shaped
		// would mask as "•••" where another shows "j***@example.com",
		// telling which hidden values are key-shaped. A key in a shown
		// domain is still caught, and masks as "•••" (not "[redacted]",
		// which would tell as much).
		text := "•••"
		if v.Kind == jsonval.String || v.Kind == jsonval.Number {
			if m := expose.Mask(v.S); !expose.IsCredential(m) {
				text = m
			}
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
		o := plain(v, max, secretNamed(f.Name, f.SecretName))
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
