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
		name   string
		maxGap int
		in     []seg
		want   []seg
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
		{name: "a segment may end at the top of a 32-bit memory", maxGap: 8,
			in:   []seg{{off: -4, data: "end!"}, {off: -10, data: "a"}},
			want: []seg{{off: -10, data: "a\x00\x00\x00\x00\x00end!"}}},
		{name: "an address past 2 GiB (a negative i32.const)", maxGap: 4,
			in:   []seg{{off: -100, data: "hi"}, {off: -96, data: "!"}},
			want: []seg{{off: -100, data: "hi\x00\x00!"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := moduleOf(false, tc.in...)
			orig := bytes.Clone(in)
			out, st, err := Merge(in, tc.maxGap)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(in, orig) {
				t.Fatal("Merge modified its input")
			}
			if want := moduleOf(false, tc.want...); !bytes.Equal(out, want) {
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

func TestMergeWithImportedFunctions(t *testing.T) {
	header := []byte("\x00asm\x01\x00\x00\x00")
	imp := wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionImport,
		[]byte{3, 1, 'w', 1, 'f', 0, 0, 1, 'w', 1, 't', 1, 0x70, 1, 1, 2, 1, 'w', 1, 'g', 3, 0x7f, 0})
	in := append(imp[:len(imp):len(imp)], memorySection...)
	body := append([]byte{2}, seg{off: 0, data: "a"}.encode()...)
	in = wasmbin.AppendSection(in, wasmbin.SectionData, append(body, seg{off: 2, data: "b"}.encode()...))
	out, st, err := Merge(in, MaxGap)
	if err != nil || st.SegmentsOut != 1 || !bytes.Equal(out[:len(imp)], imp) {
		t.Fatalf("Merge of a module importing a function, a table and a global: %v, %+v", err, st)
	}
}

func TestMergeNegativeGap(t *testing.T) {
	if _, _, err := Merge(moduleOf(false, seg{off: 0, data: "a"}), -1); err == nil {
		t.Fatal("Merge took a negative gap")
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
	header := []byte("\x00asm\x01\x00\x00\x00")
	oneSegment := append([]byte{1}, seg{off: 0, data: "a"}.encode()...)
	// An import section importing a function ("w" "f", type 0), then a
	// memory ("w" "m", limits 1) when memory is set.
	imports := func(memory bool) []byte {
		b := []byte{1, 1, 'w', 1, 'f', 0, 0}
		if memory {
			b = []byte{2, 1, 'w', 1, 'f', 0, 0, 1, 'w', 1, 'm', 2, 0, 1}
		}
		return wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionImport, b)
	}
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
		{"bytes after the last segment", wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionData, append(bytes.Clone(oneSegment), 7))},
		{"fewer segments than counted", wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionData,
			append([]byte{2}, seg{off: 0, data: "a"}.encode()...))},
		{"a segment past the top of a 32-bit memory", moduleOf(false, seg{off: -1, data: "ab"})},
		{"a data count section", moduleOf(true, seg{off: 0, data: "a"})},
		{"two data sections", wasmbin.AppendSection(wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionData, oneSegment), wasmbin.SectionData, oneSegment)},
		{"an imported memory", wasmbin.AppendSection(imports(true), wasmbin.SectionData, oneSegment)},
		{"an import of an unknown kind", wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionImport, []byte{1, 1, 'w', 1, 'x', 9, 0})},
		{"a malformed import section", wasmbin.AppendSection(bytes.Clone(header), wasmbin.SectionImport, []byte{2, 1, 'w', 1, 'f', 0, 0})},
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
	f.Add([]byte{0, 0, 0, 10, 2, 'a', 'b', 0, 0, 0, 20, 1, 'c'}, uint8(16))
	f.Add([]byte{0, 0, 0, 30, 1, 'x', 0, 0, 0, 2, 3, 'y', 'y', 'y', 0, 0, 1, 0, 0}, uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xf0, 4, 'a', 'b', 'c', 'd', 0xff, 0xff, 0xff, 0xfe, 2, 'e', 'f'}, uint8(64))
	f.Fuzz(func(t *testing.T, spec []byte, gap uint8) {
		var segs []seg
		for i := 0; i+5 <= len(spec) && len(segs) < 64; {
			off := int32(uint32(spec[i])<<24 | uint32(spec[i+1])<<16 | uint32(spec[i+2])<<8 | uint32(spec[i+3]))
			n := int(spec[i+4] % 16)
			i += 5
			if n > len(spec)-i {
				n = len(spec) - i
			}
			segs = append(segs, seg{off: off, data: string(spec[i : i+n])})
			i += n
		}
		in := moduleOf(false, segs...)
		out, st, err := Merge(in, int(gap))
		if errors.Is(err, ErrFormat) {
			// Only overlaps and segments past 2^32 are refused here;
			// check that there is one.
			img := map[uint64]bool{}
			for _, s := range segs {
				for k := range uint64(len(s.data)) {
					a := uint64(uint32(s.off)) + k
					if img[a] || a >= 1<<32 {
						return
					}
					img[a] = true
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
