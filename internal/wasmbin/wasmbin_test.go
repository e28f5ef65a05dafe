package wasmbin

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestLEB128(t *testing.T) {
	for _, v := range []uint32{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 1<<28 - 1, 1 << 28, math.MaxUint32} {
		b := AppendU32(nil, v)
		r := Reader{B: b}
		if got := r.U32(); got != v || r.Err != nil || r.P != len(b) {
			t.Errorf("U32 of AppendU32(%d) = % x: %d, %v, at %d", v, b, got, r.Err, r.P)
		}
	}
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, math.MaxInt32, math.MinInt32, 1 << 40, math.MaxInt64, math.MinInt64} {
		b := AppendS64(nil, v)
		r := Reader{B: b}
		if got := r.S64(); got != v || r.Err != nil || r.P != len(b) {
			t.Errorf("S64 of AppendS64(%d) = % x: %d, %v, at %d", v, b, got, r.Err, r.P)
		}
	}
	// The encodings the specification gives as examples.
	if b := AppendS64(nil, -123456); !bytes.Equal(b, []byte{0xc0, 0xbb, 0x78}) {
		t.Errorf("AppendS64(-123456) = % x, want c0 bb 78", b)
	}
	if b := AppendU32(nil, 624485); !bytes.Equal(b, []byte{0xe5, 0x8e, 0x26}) {
		t.Errorf("AppendU32(624485) = % x, want e5 8e 26", b)
	}
}

func TestReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		read func(*Reader)
	}{
		{"u32 cut short", []byte{0x80}, func(r *Reader) { r.U32() }},
		{"u32 over 32 bits", []byte{0xff, 0xff, 0xff, 0xff, 0x1f}, func(r *Reader) { r.U32() }},
		{"u32 of six bytes", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, func(r *Reader) { r.U32() }},
		{"s64 cut short", []byte{0xff}, func(r *Reader) { r.S64() }},
		{"s64 of eleven bytes", bytes.Repeat([]byte{0x80}, 11), func(r *Reader) { r.S64() }},
		{"a byte past the end", nil, func(r *Reader) { r.Byte() }},
		{"skipping past the end", []byte{1, 2}, func(r *Reader) { r.Skip(3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Reader{B: tc.in}
			tc.read(&r)
			if r.Err == nil {
				t.Fatal("no error")
			}
			if r.Byte() != 0 || r.P != len(r.B) {
				t.Errorf("a read after the error: P %d", r.P)
			}
		})
	}
}

func TestSections(t *testing.T) {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = AppendSection(m, 1, []byte{0x60, 0, 0})
	m = AppendSection(m, 0, []byte("\x01x"))
	m = AppendSection(m, SectionData, nil)
	got, err := Sections(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []Section{{ID: 1, Header: 8, End: 13, Body: []byte{0x60, 0, 0}}, {ID: 0, Header: 13, End: 17, Body: []byte("\x01x")}, {ID: SectionData, Header: 17, End: 19, Body: []byte{}}}
	if len(got) != len(want) {
		t.Fatalf("%d sections, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Header != w.Header || g.End != w.End || !bytes.Equal(g.Body, w.Body) || !bytes.Equal(m[g.Header:g.End], AppendSection(nil, w.ID, w.Body)) {
			t.Errorf("section %d: %+v, want %+v", i, g, w)
		}
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm"), []byte("\x00asm\x02\x00\x00\x00"), []byte("\x00ASM\x01\x00\x00\x00"),
		append(bytes.Clone(m), 1, 5, 0), append(bytes.Clone(m), 1)} {
		if _, err := Sections(bad); !errors.Is(err, ErrNotModule) {
			t.Errorf("Sections(% x): %v, want ErrNotModule", bad, err)
		}
	}
}

// FuzzSections checks that Sections never panics, and that the sections it
// returns tile the module after its header exactly.
func FuzzSections(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x01\x03\x60\x00\x00"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x80\x80\x80\x80\x10"))
	f.Fuzz(func(t *testing.T, m []byte) {
		secs, err := Sections(m)
		if err != nil {
			return
		}
		at := 8
		for _, s := range secs {
			// The size may be written in more bytes than it needs, so the
			// body is compared as the section's tail.
			if s.Header != at || m[s.Header] != s.ID || s.End-len(s.Body) <= s.Header || !bytes.Equal(m[s.End-len(s.Body):s.End], s.Body) {
				t.Fatalf("section %+v at %d", s, at)
			}
			at = s.End
		}
		if at != len(m) {
			t.Fatalf("sections end at %d of %d", at, len(m))
		}
	})
}
