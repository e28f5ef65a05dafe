// Package jw is the JSON writer behind the wire encoders: it only appends
// to one byte slice. It writes exactly what easyjson's jwriter wrote with
// NoEscapeHTML, so responses stay byte-identical, without jwriter's pooled
// buffers (which import net) and error formatting (which imports fmt, and
// through it os, reflect and time). Strings are escaped by
// jsonval.AppendString, the module's one string escaping, which matches
// jwriter's (MIT License, Mail.Ru Group; see THIRD_PARTY_NOTICES.md).
package jw

import (
	"github.com/pinholectx/pinhole/internal/jsonval"
)

// Writer accumulates JSON text. The zero value is ready to use.
type Writer struct {
	buf []byte
}

// NewWriter returns a Writer whose buffer starts with room for n bytes.
func NewWriter(n int) *Writer { return &Writer{buf: make([]byte, 0, n)} }

// Reset empties the writer and keeps its buffer for reuse.
func (w *Writer) Reset() { w.buf = w.buf[:0] }

// Bytes returns the text written so far. The slice is the writer's own.
func (w *Writer) Bytes() []byte { return w.buf }

// RawByte appends c as it is.
func (w *Writer) RawByte(c byte) { w.buf = append(w.buf, c) }

// RawString appends s as it is.
func (w *Writer) RawString(s string) { w.buf = append(w.buf, s...) }

// Raw appends b as it is; the caller vouches that b is valid JSON.
func (w *Writer) Raw(b []byte) { w.buf = append(w.buf, b...) }

// Int appends n in decimal.
func (w *Writer) Int(n int) {
	// Written out here rather than by strconv.AppendInt, whose code is
	// larger and would be compiled for the first answer of every start.
	u := uint64(n)
	if n < 0 {
		w.buf = append(w.buf, '-')
		u = -u
	}
	var d [20]byte
	i := len(d)
	for u >= 10 {
		i--
		d[i] = byte('0' + u%10)
		u /= 10
	}
	i--
	d[i] = byte('0' + u)
	w.buf = append(w.buf, d[i:]...)
}

// Bool appends true or false.
func (w *Writer) Bool(b bool) {
	if b {
		w.buf = append(w.buf, "true"...)
	} else {
		w.buf = append(w.buf, "false"...)
	}
}

// Comma appends the comma before an object member unless the member is
// the first of its object (the last byte written is the opening brace).
// No JSON value ends with '{', so this holds after any member.
func (w *Writer) Comma() {
	if n := len(w.buf); n > 0 && w.buf[n-1] != '{' {
		w.buf = append(w.buf, ',')
	}
}

// String appends s as a JSON string, escaped by jsonval.AppendString: the
// module has one string escaping, whichever encoder writes.
func (w *Writer) String(s string) { w.buf = jsonval.AppendString(w.buf, s) }
