package datamerge

import (
	"bytes"
	"errors"
	"maps"
	"testing"

	"github.com/pinholectx/pinhole/internal/wasmbin"
)

// seg is a data segment as a test writes it: raw gives its whole encoding
// (flags, offset expression, size, bytes) when set, for segments Merge
// refuses.
type seg struct {
	off  int32
	data string
	raw  []byte
}

func (s seg) encode() []byte {
	if s.raw != nil {
		return s.raw
	}
	b := []byte{0, opI32Const}
	b = wasmbin.AppendS64(b, int64(s.off))
	b = append(b, opEnd)
	b = wasmbin.AppendU32(b, uint32(len(s.data)))
	return append(b, s.data...)
}

// memorySection declares one memory of one page (64 KiB), no maximum.
var memorySection = wasmbin.AppendSection(nil, 5, []byte{1, 0, 1})

// customSection is copied through untouched.
var customSection = wasmbin.AppendSection(nil, 0, []byte("\x04noteanything"))

// moduleOf builds a module with a memory, a custom section, the segments,
// and, when dataCount, a data count section.
func moduleOf(dataCount bool, segs ...seg) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, memorySection...)
	if dataCount {
		m = wasmbin.AppendSection(m, wasmbin.SectionDataCount, wasmbin.AppendU32(nil, uint32(len(segs))))
	}
	body := wasmbin.AppendU32(nil, uint32(len(segs)))
	for _, s := range segs {
		body = append(body, s.encode()...)
	}
	m = wasmbin.AppendSection(m, wasmbin.SectionData, body)
	return append(m, customSection...)
}

// image is the memory an instance of module starts with: the segments
// applied in order over zeros, as the address and value of every byte
// that is not zero.
func image(t testing.TB, module []byte) map[uint32]byte {
	t.Helper()
	mem := map[uint32]byte{}
	for _, g := range segmentsOf(t, module) {
		for k, c := range g.data {
			if c != 0 {
				mem[g.offset+uint32(k)] = c
			} else {
				delete(mem, g.offset+uint32(k))
			}
		}
	}
	return mem
}

// segmentsOf decodes module's data segments.
func segmentsOf(t testing.TB, module []byte) []segment {
	t.Helper()
	sections, err := wasmbin.Sections(module)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sections {
		if s.ID == wasmbin.SectionData {
			segs, err := readSegments(s.Body)
			if err != nil {
				t.Fatal(err)
			}
			return segs
		}
	}
	return nil
}

func TestMerge(t *testing.T) {
	z := func(n int) string { return string(make([]byte, n)) }
	for _, tc := range []struct {
		name      string
		maxGap    int
		dataCount bool
		in        []seg
		want      []seg
	}{
		{name: "a gap within the limit is written as zeros", maxGap: 8,
			in:   []seg{{off: 16, data: "ab"}, {off: 26, data: "cd"}},
			want: []seg{{off: 16, data: "ab" + z(8) + "cd"}}},
		{name: "a gap past the limit keeps two segments", maxGap: 7,
			in:   []seg{{off: 16, data: "ab"}, {off: 26, data: "cd"}},
			want: []seg{{off: 16, data: "ab"}, {off: 26, data: "cd"}}},
		{name: "adjacent segments join", maxGap: 0,
			in:   []seg{{off: 0, data: "ab"}, {off: 2, data: "cd"}, {off: 4, data: "e"}},
			want: []seg{{off: 0, data: "abcde"}}},
		{name: "segments out of order are sorted first", maxGap: 64,
			in:   []seg{{off: 40, data: "x"}, {off: 10, data: "y"}, {off: 200, data: "z"}},
			want: []seg{{off: 10, data: "y" + z(29) + "x"}, {off: 200, data: "z"}}},
		{name: "an empty segment is kept as it is", maxGap: 64,
			in:   []seg{{off: 10, data: "a"}, {off: 12, data: ""}, {off: 14, data: "b"}},
			want: []seg{{off: 10, data: "a" + z(3) + "b"}, {off: 12, data: ""}}},
		{name: "the data count follows the segments", maxGap: 64, dataCount: true,
			in:   []seg{{off: 1, data: "a"}, {off: 3, data: "b"}, {off: 5, data: "c"}},
			want: []seg{{off: 1, data: "a\x00b\x00c"}}},
		{name: "an address past 2 GiB (a negative i32.const)", maxGap: 4,
			in:   []seg{{off: -100, data: "hi"}, {off: -96, data: "!"}},
			want: []seg{{off: -100, data: "hi\x00\x00!"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := moduleOf(tc.dataCount, tc.in...)
			orig := bytes.Clone(in)
			out, st, err := Merge(in, tc.maxGap)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(in, orig) {
				t.Fatal("Merge modified its input")
			}
			if want := moduleOf(tc.dataCount, tc.want...); !bytes.Equal(out, want) {
				t.Fatalf("got\n% x\nwant\n% x", out, want)
			}
			if st.SegmentsIn != len(tc.in) || st.SegmentsOut != len(tc.want) {
				t.Errorf("stats %+v, want %d segments in and %d out", st, len(tc.in), len(tc.want))
			}
			if !maps.Equal(image(t, out), image(t, in)) {
				t.Error("the merged module's memory differs")
			}
			again, st2, err := Merge(out, tc.maxGap)
			if err != nil || !bytes.Equal(again, out) || st2.SegmentsIn != st2.SegmentsOut {
				t.Errorf("a second merge changed the module (%+v, %v)", st2, err)
			}
		})
	}
}

func TestMergeWithoutData(t *testing.T) {
	in := append([]byte("\x00asm\x01\x00\x00\x00"), memorySection...)
	out, st, err := Merge(in, MaxGap)
	if err != nil || !bytes.Equal(out, in) || st != (Stats{}) {
		t.Fatalf("Merge of a module without data: %v, %+v, % x", err, st, out)
	}
}

func TestMergeRefuses(t *testing.T) {
	passive := append([]byte{1}, wasmbin.AppendU32(nil, 1)...)
	for _, tc := range []struct {
		name   string
		module []byte
	}{
		{"not a module", []byte("\x00asm\x02\x00\x00\x00")},
		{"a section running past the end", []byte("\x00asm\x01\x00\x00\x00\x0b\x05\x01")},
		{"overlapping segments", moduleOf(false, seg{off: 0, data: "abcd"}, seg{off: 2, data: "xy"})},
		{"a passive segment", moduleOf(false, seg{raw: append(passive, 'a')})},
		{"a segment of another memory", moduleOf(false, seg{raw: []byte{2, 1, opI32Const, 0, opEnd, 1, 'a'}})},
		{"an offset read from a global", moduleOf(false, seg{raw: []byte{0, 0x23, 0, opEnd, 1, 'a'}})},
		{"an offset expression of two instructions", moduleOf(false, seg{raw: []byte{0, opI32Const, 0, opI32Const, 0, opEnd, 1, 'a'}})},
		{"an offset beyond 32 bits", moduleOf(false, seg{raw: append(append([]byte{0, opI32Const}, wasmbin.AppendS64(nil, 1<<33)...), opEnd, 1, 'a')})},
		{"a segment running past its section", moduleOf(false, seg{raw: []byte{0, opI32Const, 0, opEnd, 9, 'a'}})},
		{"bytes after the last segment", wasmbin.AppendSection([]byte("\x00asm\x01\x00\x00\x00"), wasmbin.SectionData,
			append(append([]byte{1}, seg{off: 0, data: "a"}.encode()...), 7))},
		{"fewer segments than counted", wasmbin.AppendSection([]byte("\x00asm\x01\x00\x00\x00"), wasmbin.SectionData,
			append([]byte{2}, seg{off: 0, data: "a"}.encode()...))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Merge(tc.module, MaxGap)
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("err = %v, want ErrFormat", err)
			}
		})
	}
}

// FuzzMerge builds a module from arbitrary segments and checks that the
// merged module, when Merge accepts it, starts with the same memory, has
// no more segments, and is left as it is by a second merge.
func FuzzMerge(f *testing.F) {
	f.Add([]byte{0, 10, 2, 'a', 'b', 0, 20, 1, 'c'}, uint8(16))
	f.Add([]byte{0, 30, 1, 'x', 0, 2, 3, 'y', 'y', 'y', 1, 0, 0}, uint8(0))
	f.Fuzz(func(t *testing.T, spec []byte, gap uint8) {
		var segs []seg
		for i := 0; i+3 <= len(spec) && len(segs) < 64; {
			off := int32(spec[i])<<8 | int32(spec[i+1])
			n := int(spec[i+2] % 16)
			i += 3
			if n > len(spec)-i {
				n = len(spec) - i
			}
			segs = append(segs, seg{off: off, data: string(spec[i : i+n])})
			i += n
		}
		in := moduleOf(false, segs...)
		out, st, err := Merge(in, int(gap))
		if errors.Is(err, ErrFormat) {
			// Only overlaps are refused here; check that there is one.
			img := map[int32]bool{}
			for _, s := range segs {
				for k := range len(s.data) {
					if img[s.off+int32(k)] {
						return
					}
					img[s.off+int32(k)] = true
				}
			}
			t.Fatalf("refused segments that do not overlap: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(image(t, out), image(t, in)) {
			t.Fatal("the merged module's memory differs")
		}
		if st.SegmentsOut > st.SegmentsIn || len(segmentsOf(t, out)) != st.SegmentsOut {
			t.Fatalf("stats %+v", st)
		}
		again, _, err := Merge(out, int(gap))
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a second merge changed the module: %v", err)
		}
	})
}
