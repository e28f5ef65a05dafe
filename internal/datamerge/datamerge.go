// Package datamerge joins the data segments of a Go-compiled WebAssembly
// module into a few.
//
// Go's linker writes a module's data (read-only data, type descriptors,
// the function tables, initialised variables) as one active segment per
// run of bytes, starting a new segment wherever 8 or more zero bytes
// follow each other. pinhole.wasm has 35,302 segments; all but 19 of the
// gaps between them are 64 bytes or less. A runtime pays for each segment
// twice: V8 decodes its header and offset expression when it compiles the
// module, and copies it on its own when it instantiates it. Merge joins
// neighbouring segments whose gap is at most a given number of bytes and
// writes the gap's zeros into the joined segment (BENCHMARKS.md, "Merged
// data segments").
//
// The memory an instance starts with is the same, byte for byte: linear
// memory starts zeroed, a gap is bytes no segment writes, and segments are
// joined only when none overlaps another (then their order does not
// matter). The module gets larger (pinhole.wasm by 12%, zeros) and
// compresses smaller (the headers were the part gzip could not shrink).
// Anything but active segments of memory 0 at constant offsets, as Go
// writes them, is refused, and the build stops.
package datamerge

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/pinholectx/pinhole/internal/wasmbin"
)

// MaxGap is the gap `make wasm` joins across: 64 zero bytes. It takes in all
// but 19 of pinhole.wasm's gaps; the rest are longer (up to 4 KiB).
const MaxGap = 64

// Stats counts what Merge changed.
type Stats struct {
	SegmentsIn, SegmentsOut int
	BytesIn, BytesOut       int // the data section's size before and after
}

// ErrFormat is wrapped by the errors Merge returns for a module it cannot
// read or whose data it does not merge: malformed, or holding a segment
// other than Go writes.
var ErrFormat = errors.New("datamerge: unsupported module")

const (
	opI32Const = 0x41
	opEnd      = 0x0b
)

// A segment is an active data segment of memory 0.
type segment struct {
	offset uint32
	data   []byte
}

// Merge returns module with each run of data segments whose gaps are at most
// maxGap bytes written as one segment, and what it changed. module is not
// modified; every section but the data section is copied byte for byte.
//
// Besides segments Go does not write, Merge refuses a module that imports
// its memory (a failed instantiation could leave other bytes in memory its
// host shares, since the order of the writes changes) and one with a data
// count section (its code may name segments by index, which merging
// changes). Go's modules have neither.
func Merge(module []byte, maxGap int) ([]byte, Stats, error) {
	var st Stats
	if maxGap < 0 {
		return nil, st, fmt.Errorf("datamerge: a negative gap (%d)", maxGap)
	}
	sections, err := wasmbin.Sections(module)
	if err != nil {
		return nil, st, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	var data []byte
	seen := false
	for _, s := range sections {
		switch s.ID {
		case wasmbin.SectionImport:
			imported, err := importsMemory(s.Body)
			if err != nil {
				return nil, st, err
			}
			if imported {
				return nil, st, fmt.Errorf("%w: the module imports its memory", ErrFormat)
			}
		case wasmbin.SectionDataCount:
			return nil, st, fmt.Errorf("%w: a data count section (code may name data segments by index)", ErrFormat)
		case wasmbin.SectionData:
			if seen {
				return nil, st, fmt.Errorf("%w: two data sections", ErrFormat)
			}
			seen = true
			segs, err := readSegments(s.Body)
			if err != nil {
				return nil, st, err
			}
			st.SegmentsIn, st.BytesIn = len(segs), len(s.Body)
			merged, err := merge(segs, maxGap)
			if err != nil {
				return nil, st, err
			}
			data = writeSegments(merged)
			st.SegmentsOut, st.BytesOut = len(merged), len(data)
		}
	}
	out := make([]byte, 0, len(module)+st.BytesOut-st.BytesIn)
	out = append(out, module[:8]...)
	for _, s := range sections {
		if s.ID == wasmbin.SectionData {
			out = wasmbin.AppendSection(out, s.ID, data)
		} else {
			out = append(out, module[s.Header:s.End]...)
		}
	}
	return out, st, nil
}

// importsMemory reports whether an import section imports a memory.
func importsMemory(sec []byte) (bool, error) {
	r := wasmbin.Reader{B: sec}
	for n := r.U32(); n > 0 && r.Err == nil; n-- {
		r.Skip(int(r.U32())) // module name
		r.Skip(int(r.U32())) // field name
		switch kind := r.Byte(); kind {
		case 0x00: // function: a type index
			r.U32()
		case 0x01: // table: a reference type, then limits
			r.Byte()
			skipLimits(&r)
		case 0x02: // memory
			return true, nil
		case 0x03: // global: a value type and mutability
			r.Byte()
			r.Byte()
		default:
			return false, fmt.Errorf("%w: an import of kind %d", ErrFormat, kind)
		}
	}
	if r.Err != nil || r.P != len(sec) {
		return false, fmt.Errorf("%w: malformed import section", ErrFormat)
	}
	return false, nil
}

// skipLimits passes over a table's or memory's limits.
func skipLimits(r *wasmbin.Reader) {
	if r.Byte()&1 != 0 {
		r.U32()
	}
	r.U32()
}

// readSegments decodes a data section, refusing any segment that is not
// active in memory 0 at an i32.const offset.
func readSegments(sec []byte) ([]segment, error) {
	r := wasmbin.Reader{B: sec}
	n := r.U32()
	var segs []segment
	for i := uint32(0); i < n && r.Err == nil; i++ {
		at := r.P
		if flags := r.U32(); flags != 0 {
			return nil, fmt.Errorf("%w: data segment %d (byte %d) is passive or names a memory (flags %d)", ErrFormat, i, at, flags)
		}
		if r.Byte() != opI32Const {
			return nil, fmt.Errorf("%w: data segment %d (byte %d) has an offset that is not an i32.const", ErrFormat, i, at)
		}
		off := r.S64()
		if r.Byte() != opEnd || r.Err != nil {
			return nil, fmt.Errorf("%w: data segment %d (byte %d) has an offset that is not an i32.const", ErrFormat, i, at)
		}
		size := int(r.U32())
		if r.Err != nil || size > len(sec)-r.P {
			break
		}
		if off < math.MinInt32 || off > math.MaxInt32 {
			return nil, fmt.Errorf("%w: data segment %d (byte %d) has an offset that is not an i32", ErrFormat, i, at)
		}
		addr := uint32(int32(off)) // an i32.const is signed; the address it gives is not
		if uint64(addr)+uint64(size) > 1<<32 {
			return nil, fmt.Errorf("%w: data segment %d (byte %d) runs past a 32-bit memory", ErrFormat, i, at)
		}
		segs = append(segs, segment{offset: addr, data: sec[r.P : r.P+size : r.P+size]}) // capped: appending copies
		r.P += size
	}
	if r.Err != nil || len(segs) != int(n) || r.P != len(sec) {
		return nil, fmt.Errorf("%w: malformed data section", ErrFormat)
	}
	return segs, nil
}

// merge sorts the segments by offset and joins neighbours at most maxGap
// bytes apart. Overlapping segments are refused: which bytes win then
// depends on their order, which a merge would change. An empty segment is
// kept as it is: it writes nothing, but instantiation still checks its
// offset.
func merge(segs []segment, maxGap int) ([]segment, error) {
	segs = append([]segment(nil), segs...)
	sort.SliceStable(segs, func(i, j int) bool { return segs[i].offset < segs[j].offset })
	var out []segment
	last := -1 // the index in out of the last non-empty segment
	for _, s := range segs {
		if len(s.data) == 0 {
			out = append(out, s)
			continue
		}
		if last >= 0 {
			l := &out[last]
			end := uint64(l.offset) + uint64(len(l.data))
			if uint64(s.offset) < end {
				return nil, fmt.Errorf("%w: data segments overlap at offset %d", ErrFormat, s.offset)
			}
			if gap := uint64(s.offset) - end; gap <= uint64(maxGap) {
				l.data = append(l.data, make([]byte, gap)...)
				l.data = append(l.data, s.data...)
				continue
			}
		}
		out = append(out, s)
		last = len(out) - 1
	}
	return out, nil
}

// writeSegments encodes a data section of active segments in memory 0.
func writeSegments(segs []segment) []byte {
	n := 0
	for _, s := range segs {
		n += len(s.data) + 16
	}
	b := wasmbin.AppendU32(make([]byte, 0, n+5), uint32(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = wasmbin.AppendS64(b, int64(int32(s.offset)))
		b = append(b, opEnd)
		b = wasmbin.AppendU32(b, uint32(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}
