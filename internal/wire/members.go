package wire

import "github.com/pinholectx/pinhole/internal/wire/internal/jw"

// Raw is JSON text written into the output as it is. It must be valid,
// canonical JSON (the core produces it with jsonval).
type Raw []byte

// EncodeJSON writes r verbatim, or null when r is empty.
func (r Raw) EncodeJSON(w *jw.Writer) {
	if len(r) == 0 {
		w.RawString("null")
		return
	}
	w.Raw(r)
}

// IsDefined lets omitempty drop an empty Raw.
func (r Raw) IsDefined() bool { return len(r) > 0 }

// Member is one key of an ordered JSON object.
type Member struct {
	Key   string
	Value Raw
}

// Members is a JSON object whose keys keep the manifest's order. Go maps
// would make the output order random, and outputs must be byte-identical
// across runtimes.
type Members []Member

// EncodeJSON writes the members as one object.
func (m Members) EncodeJSON(w *jw.Writer) {
	w.RawByte('{')
	for i, kv := range m {
		if i > 0 {
			w.RawByte(',')
		}
		w.String(kv.Key)
		w.RawByte(':')
		kv.Value.EncodeJSON(w)
	}
	w.RawByte('}')
}

// IsDefined reports whether m has members (for omitempty).
func (m Members) IsDefined() bool { return len(m) > 0 }

// Count is one key of an ordered JSON object of integers.
type Count struct {
	Key string
	N   int
}

// Counts is an ordered JSON object of integers, such as field name to
// original length in characters.
type Counts []Count

// EncodeJSON writes the counts as one object.
func (c Counts) EncodeJSON(w *jw.Writer) {
	w.RawByte('{')
	for i, kv := range c {
		if i > 0 {
			w.RawByte(',')
		}
		w.String(kv.Key)
		w.RawByte(':')
		w.Int(kv.N)
	}
	w.RawByte('}')
}

// IsDefined reports whether c has members (for omitempty).
func (c Counts) IsDefined() bool { return len(c) > 0 }

// Encoder is a value with a JSON encoding: every response type of this
// package (the generated *_enc.go files), Raw, Members and Counts.
type Encoder interface {
	EncodeJSON(w *jw.Writer)
}

// Encode returns the JSON encoding of v.
func Encode(v Encoder) []byte {
	w := jw.NewWriter(512)
	v.EncodeJSON(w)
	return w.Bytes()
}
