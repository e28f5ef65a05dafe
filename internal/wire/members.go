package wire

import (
	"sync/atomic"

	"github.com/pinholectx/pinhole/internal/wire/internal/jw"
)

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

// spare is an encoding buffer kept for reuse: a describe is encoded several
// times while it is fitted to its byte bound, and growing a fresh buffer
// each time would allocate about three times the response. Encode takes it
// with a swap, so concurrent callers never share it (one of them then
// allocates); sync.Pool would cost the module 40 KB for the same.
var spare atomic.Pointer[jw.Writer]

// keepBelow is the largest buffer kept for reuse.
const keepBelow = 1 << 20

// Encode returns the JSON encoding of v, in a slice of its own.
func Encode(v Encoder) []byte {
	w := encodeSpare(v)
	out := make([]byte, len(w.Bytes()))
	copy(out, w.Bytes())
	keep(w)
	return out
}

// EncodedLen returns the length of v's JSON encoding without copying it
// out: what each try of fitting a response to its byte bound needs.
func EncodedLen(v Encoder) int {
	w := encodeSpare(v)
	n := len(w.Bytes())
	keep(w)
	return n
}

// encodeSpare writes v into the spare buffer, or a new one.
func encodeSpare(v Encoder) *jw.Writer {
	w := spare.Swap(nil)
	if w == nil {
		w = jw.NewWriter(4096)
	}
	w.Reset()
	v.EncodeJSON(w)
	return w
}

// keep gives w back for reuse, unless it grew too large to keep.
func keep(w *jw.Writer) {
	if cap(w.Bytes()) < keepBelow {
		spare.Store(w)
	}
}
