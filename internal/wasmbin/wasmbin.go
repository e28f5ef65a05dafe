// Package wasmbin reads and writes the few parts of the WebAssembly binary
// format that the build's post-link passes (internal/addrfold,
// internal/datamerge) share: LEB128 numbers and a module's sections.
//
// It is used at build time only, on modules Go's linker wrote; nothing in
// it is compiled into pinhole.wasm.
package wasmbin

import (
	"errors"
	"fmt"
)

// Section ids the passes read or write.
const (
	SectionImport    = 2
	SectionCode      = 10
	SectionData      = 11
	SectionDataCount = 12
)

// ErrNotModule is returned by Sections for bytes that are not a
// WebAssembly 1.0 binary or whose sections do not add up.
var ErrNotModule = errors.New("not a WebAssembly 1.0 binary")

// A Section is one section of a module: its id, where it starts and ends
// in the module, and its contents.
type Section struct {
	ID     byte
	Header int    // the offset of its id byte in the module
	End    int    // the offset after its contents
	Body   []byte // the contents, after the id and size
}

// Sections splits module into its sections, in order. The bodies alias
// module.
func Sections(module []byte) ([]Section, error) {
	if len(module) < 8 || string(module[:4]) != "\x00asm" || module[4] != 1 || module[5] != 0 || module[6] != 0 || module[7] != 0 {
		return nil, ErrNotModule
	}
	var out []Section
	r := Reader{B: module, P: 8}
	for r.P < len(module) {
		header := r.P
		id := r.Byte()
		size := int(r.U32())
		if r.Err != nil || size > len(module)-r.P {
			return nil, fmt.Errorf("%w: section header at byte %d", ErrNotModule, header)
		}
		out = append(out, Section{ID: id, Header: header, End: r.P + size, Body: module[r.P : r.P+size]})
		r.P += size
	}
	return out, nil
}

// AppendSection appends a section with the given id and contents.
func AppendSection(b []byte, id byte, body []byte) []byte {
	b = append(b, id)
	b = AppendU32(b, uint32(len(body)))
	return append(b, body...)
}

// A Reader reads bytes and LEB128 numbers from B, starting at P. Its first
// error sticks: after it, every read returns zero and P is len(B).
type Reader struct {
	B   []byte
	P   int
	Err error
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.P >= len(r.B) {
		r.Fail()
		return 0
	}
	r.P++
	return r.B[r.P-1]
}

// Skip passes over n bytes.
func (r *Reader) Skip(n int) {
	if n > len(r.B)-r.P {
		r.Fail()
		return
	}
	r.P += n
}

// Fail records that the input ended early.
func (r *Reader) Fail() { r.failWith("unexpected end of input") }

// failWith records the first error and stops reading.
func (r *Reader) failWith(msg string) {
	if r.Err == nil {
		r.Err = errors.New(msg)
	}
	r.P = len(r.B)
}

// U32 reads an unsigned LEB128 number of at most 32 bits.
func (r *Reader) U32() uint32 {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c := r.Byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if v >= 1<<32 {
				r.failWith("u32 out of range")
				return 0
			}
			return uint32(v)
		}
	}
	r.failWith("u32 too long")
	return 0
}

// S64 reads a signed LEB128 number of at most 64 bits.
func (r *Reader) S64() int64 {
	var v int64
	for shift := 0; shift < 70; shift += 7 {
		c := r.Byte()
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift < 63 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v
		}
	}
	r.failWith("s64 too long")
	return 0
}

// AppendU32 appends v as unsigned LEB128.
func AppendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// AppendS64 appends v as signed LEB128 (an i32.const's or i64.const's
// immediate).
func AppendS64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
