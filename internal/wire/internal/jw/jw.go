// Package jw is the JSON writer behind the wire encoders: it only appends
// to one byte slice. It writes exactly what easyjson's jwriter wrote with
// NoEscapeHTML, so responses stay byte-identical, without jwriter's pooled
// buffers (which import net) and error formatting (which imports fmt, and
// through it os, reflect and time). The escaping is adapted from jwriter
// (MIT License, Mail.Ru Group; see THIRD_PARTY_NOTICES.md).
package jw

import (
	"strconv"
	"unicode/utf8"
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
func (w *Writer) Int(n int) { w.buf = strconv.AppendInt(w.buf, int64(n), 10) }

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

const hex = "0123456789abcdef"

// String appends s as a JSON string. Escaped: '"', '\\', and control
// characters below U+0020 (\t, \n and \r by name, the rest as \u00XX);
// U+2028 and U+2029 as \u2028 and \u2029 (JavaScript line terminators);
// each byte of invalid UTF-8 becomes \ufffd. Everything else, '<', '>',
// '&' and U+007F included, is written as it is.
func (w *Writer) String(s string) {
	b := append(w.buf, '"')
	p := 0 // start of the run not yet appended
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[p:i]...)
			switch c {
			case '\t':
				b = append(b, '\\', 't')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '"', '\\':
				b = append(b, '\\', c)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			p = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[p:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[p:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		p = i
	}
	b = append(b, s[p:]...)
	w.buf = append(b, '"')
}
