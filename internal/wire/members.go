package wire

import (
	"github.com/mailru/easyjson/jwriter"
)

// Raw is JSON text written into the output as it is. It must be valid,
// canonical JSON (the core produces it with jsonval).
type Raw []byte

// MarshalEasyJSON writes r verbatim, or null when r is empty.
func (r Raw) MarshalEasyJSON(w *jwriter.Writer) {
	if len(r) == 0 {
		w.RawString("null")
		return
	}
	w.Raw(r, nil)
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

// MarshalEasyJSON writes the members as one object.
func (m Members) MarshalEasyJSON(w *jwriter.Writer) {
	w.RawByte('{')
	for i, kv := range m {
		if i > 0 {
			w.RawByte(',')
		}
		w.String(kv.Key)
		w.RawByte(':')
		kv.Value.MarshalEasyJSON(w)
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

// MarshalEasyJSON writes the counts as one object.
func (c Counts) MarshalEasyJSON(w *jwriter.Writer) {
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

// Encode returns the JSON encoding of an easyjson-generated value.
func Encode(v interface {
	MarshalEasyJSON(*jwriter.Writer)
}) []byte {
	w := jwriter.Writer{NoEscapeHTML: true}
	v.MarshalEasyJSON(&w)
	b, _ := w.BuildBytes() // the writer only fails on errors it was given
	return b
}
