// Package addrfold shrinks a Go-compiled WebAssembly module by folding
// constant address arithmetic into the offset immediates of the loads and
// stores that use it.
//
// Go's wasm back end computes the address of a stack slot or a field as
//
//	local.get $sp; i64.extend_i32_u; i64.const 16; i64.add; i32.wrap_i64; i64.load
//
// five instructions where WebAssembly needs one (`local.get $sp; i64.load
// offset=16`). A quarter of the loads and stores of pinhole.wasm are written
// so. V8 validates every function of a module when it compiles it and
// compiles each with Liftoff on its first call, both at a cost in
// proportion to the instructions, so the start-up pays for each of them
// (BENCHMARKS.md, "Folded addresses").
//
// The fold is exact for every address inside linear memory: a memory
// instruction's effective address is its operand plus its offset, computed
// without wrapping, where Go's sequence wraps at 2^32. The two differ only
// when base plus constant reaches 2^32, which a field of an object or a
// slot of a frame in memory cannot: there the folded instruction would
// trap where the original read low memory. Nothing else changes: no
// instruction moves, and control flow, function indices (Go's program
// counters) and the other sections are copied byte for byte.
package addrfold

import (
	"errors"
	"fmt"

	"github.com/pinholectx/pinhole/internal/wasmbin"
)

// Stats counts what Fold changed.
type Stats struct {
	Functions int // function bodies in the code section
	Folded    int // loads and stores whose offset took in an addition
	Removed   int // instructions removed
	BytesIn   int // the code section's size before
	BytesOut  int // and after
}

// ErrFormat is wrapped by the errors Fold returns for a module it cannot
// read: malformed, or holding an instruction outside the set it knows.
var ErrFormat = errors.New("addrfold: unsupported module")

// Opcodes Fold reads or writes.
const (
	opI64Const     = 0x42
	opI64Add       = 0x7c
	opI32WrapI64   = 0xa7
	opI64ExtendU32 = 0xad
	opFirstMemory  = 0x28 // i32.load
	opLastLoad     = 0x35 // i64.load32_u
	opLastMemory   = 0x3e // i64.store32
)

// maxOffset bounds the offsets Fold writes. The constants Go adds are a
// field's place in its object or a slot's in its stack frame, far below
// it; a larger one is left as Go wrote it.
const maxOffset = 1 << 20

// Fold returns module with its constant address additions folded, and what
// it changed. module is not modified. A module Fold cannot read is returned
// with an error wrapping ErrFormat.
func Fold(module []byte) ([]byte, Stats, error) {
	var st Stats
	sections, err := wasmbin.Sections(module)
	if err != nil {
		return nil, st, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	out := make([]byte, 0, len(module))
	out = append(out, module[:8]...)
	for _, s := range sections {
		if s.ID != wasmbin.SectionCode {
			out = append(out, module[s.Header:s.End]...) // header and all, as written
			continue
		}
		code, err := foldCode(s.Body, &st)
		if err != nil {
			return nil, st, err
		}
		st.BytesIn, st.BytesOut = len(s.Body), len(code)
		out = wasmbin.AppendSection(out, s.ID, code)
	}
	return out, st, nil
}

// foldCode rewrites a code section's bodies.
func foldCode(sec []byte, st *Stats) ([]byte, error) {
	r := wasmbin.Reader{B: sec}
	n := r.U32()
	out := wasmbin.AppendU32(make([]byte, 0, len(sec)), n)
	var f folder
	for i := uint32(0); i < n && r.Err == nil; i++ {
		size := int(r.U32())
		if r.Err != nil || size > len(sec)-r.P {
			return nil, fmt.Errorf("%w: body %d runs past the code section", ErrFormat, i)
		}
		body, err := f.fold(sec[r.P:r.P+size], st)
		if err != nil {
			return nil, fmt.Errorf("%w (function body %d)", err, i)
		}
		r.P += size
		out = wasmbin.AppendU32(out, uint32(len(body)))
		out = append(out, body...)
		st.Functions++
	}
	if r.Err != nil || r.P != len(sec) {
		return nil, fmt.Errorf("%w: malformed code section", ErrFormat)
	}
	return out, nil
}

// An instr is one decoded instruction of a body.
type instr struct {
	op         byte   // the opcode (the first byte; 0xfc for the prefixed ones)
	sub        uint32 // the sub-opcode of a 0xfc instruction
	start, end int    // its bytes in the body
	imm        int64  // i64.const's value
	align      uint32 // a memory instruction's alignment
	offset     uint64 // and offset
	removed    bool
	folded     bool
}

// A folder holds the buffers reused from body to body.
type folder struct {
	ins []instr
}

// fold rewrites one function body, until nothing is left to fold: a fold
// can bring a wrap next to an extend, or a constant next to its addition,
// that were apart (Go's output has no such chains; a second pass is then
// only a check).
func (f *folder) fold(body []byte, st *Stats) ([]byte, error) {
	for {
		out, changed, err := f.foldOnce(body, st)
		if err != nil || !changed {
			return out, err
		}
		body = out
	}
}

// foldOnce folds what one pass over body finds, and says whether it found
// anything.
func (f *folder) foldOnce(body []byte, st *Stats) (out []byte, changed bool, err error) {
	r := wasmbin.Reader{B: body}
	// The local declarations are copied as they are.
	for n := r.U32(); n > 0 && r.Err == nil; n-- {
		r.U32()
		if !valueType(r.Byte()) {
			return nil, false, fmt.Errorf("%w: a local of a type it does not know", ErrFormat)
		}
	}
	if r.Err != nil {
		return nil, false, fmt.Errorf("%w: malformed local declarations", ErrFormat)
	}
	locals := r.P
	ins, err := decode(body, locals, f.ins[:0])
	f.ins = ins
	if err != nil {
		return nil, false, err
	}
	// A fold at the wrap ins[i] removes only instructions at i or before,
	// and only a wrap's neighbours: what a later wrap looks back at (an
	// extend, an add, a constant) and what consumer looks ahead at are
	// never removed ones.
	for i := 2; i < len(ins); i++ {
		if ins[i].op != opI32WrapI64 {
			continue
		}
		if ins[i-1].op == opI64ExtendU32 {
			// wrap(extend_u(x)) is x.
			ins[i-1].removed, ins[i].removed = true, true
			st.Removed += 2
			changed = true
			continue
		}
		c := &ins[i-2]
		if ins[i-1].op != opI64Add || c.op != opI64Const || c.imm < 0 || c.imm >= maxOffset {
			continue
		}
		m := consumer(ins, i)
		if m < 0 || ins[m].offset+uint64(c.imm) >= maxOffset {
			continue
		}
		ins[m].offset += uint64(c.imm)
		ins[m].folded = true
		c.removed, ins[i-1].removed = true, true
		st.Folded++
		st.Removed += 2
		if i >= 3 && ins[i-3].op == opI64ExtendU32 {
			ins[i-3].removed, ins[i].removed = true, true
			st.Removed += 2
		}
		changed = true
	}
	if !changed {
		return body, false, nil
	}
	out = make([]byte, 0, len(body))
	out = append(out, body[:locals]...)
	for _, in := range ins {
		switch {
		case in.removed:
		case in.folded:
			out = append(out, in.op)
			out = wasmbin.AppendU32(out, in.align)
			out = wasmbin.AppendU32(out, uint32(in.offset))
		default:
			out = append(out, body[in.start:in.end]...)
		}
	}
	return out, true, nil
}

// consumer returns the index of the load or store whose address operand is
// the value ins[w] leaves on the stack, when it is reached by straight-line
// code; -1 otherwise. It follows the stack's height from w on: the value is
// at the bottom, and the first instruction that pops it must be the memory
// instruction, with it as its first operand.
func consumer(ins []instr, w int) int {
	height := 1
	for j := w + 1; j < len(ins); j++ {
		in := &ins[j]
		pops, pushes, ok := effect(in)
		if !ok {
			return -1
		}
		if pops < height {
			height += pushes - pops
			continue
		}
		if pops != height || in.op < opFirstMemory || in.op > opLastMemory {
			return -1
		}
		return j
	}
	return -1
}

// effect is the number of values a straight-line instruction pops and
// pushes; ok is false for control flow, calls and anything not listed, where
// consumer stops looking.
func effect(in *instr) (pops, pushes int, ok bool) {
	op := in.op
	switch {
	case op == 0x20 || op == 0x23 || (op >= 0x41 && op <= 0x44) || op == 0x3f: // local.get, global.get, consts, memory.size
		return 0, 1, true
	case op == 0x21 || op == 0x24 || op == 0x1a: // local.set, global.set, drop
		return 1, 0, true
	case op == 0x22 || op == 0x40: // local.tee, memory.grow
		return 1, 1, true
	case op >= opFirstMemory && op <= opLastLoad:
		return 1, 1, true
	case op > opLastLoad && op <= opLastMemory:
		return 2, 0, true
	case op == 0x1b: // select
		return 3, 1, true
	case op == 0x45 || op == 0x50 || (op >= 0x67 && op <= 0x69) || (op >= 0x79 && op <= 0x7b) ||
		(op >= 0x8b && op <= 0x91) || (op >= 0x99 && op <= 0x9f) || (op >= 0xa7 && op <= 0xc4): // unary, conversions
		return 1, 1, true
	case (op >= 0x46 && op <= 0x4f) || (op >= 0x51 && op <= 0x66) || (op >= 0x6a && op <= 0x78) ||
		(op >= 0x7c && op <= 0x8a) || (op >= 0x92 && op <= 0x98) || (op >= 0xa0 && op <= 0xa6): // binary
		return 2, 1, true
	case op == 0xfc && in.sub <= 7: // saturating truncations
		return 1, 1, true
	}
	return 0, 0, false
}

// decode reads the instructions of body from p to its end.
func decode(body []byte, p int, ins []instr) ([]instr, error) {
	r := wasmbin.Reader{B: body, P: p}
	for r.P < len(body) && r.Err == nil {
		in := instr{start: r.P}
		in.op = r.Byte()
		switch op := in.op; {
		case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
			if t := r.Byte(); t != 0x40 && !valueType(t) {
				r.P--
				if r.S64() < 0 { // a type index (s33), or a type it does not know
					return ins, fmt.Errorf("%w: block type at byte %d", ErrFormat, in.start)
				}
			}
		case op == 0x0c || op == 0x0d || op == 0x10 || (op >= 0x20 && op <= 0x26) || op == 0xd2: // br, br_if, call, variables, table.get/set, ref.func
			r.U32()
		case op == 0x0e: // br_table
			for n := r.U32(); n > 0 && r.Err == nil; n-- {
				r.U32()
			}
			r.U32()
		case op == 0x11: // call_indirect
			r.U32()
			r.U32()
		case op == 0x1c: // select t*
			for n := r.U32(); n > 0 && r.Err == nil; n-- {
				if !valueType(r.Byte()) {
					return ins, fmt.Errorf("%w: select type at byte %d", ErrFormat, in.start)
				}
			}
		case op >= opFirstMemory && op <= opLastMemory:
			in.align = r.U32()
			in.offset = uint64(r.U32())
			if in.align&0x40 != 0 { // a memory index follows (multi-memory)
				return ins, fmt.Errorf("%w: multiple memories", ErrFormat)
			}
		case op == 0x3f || op == 0x40: // memory.size, memory.grow
			r.U32()
		case op == 0x41:
			r.S64()
		case op == opI64Const:
			in.imm = r.S64()
		case op == 0x43:
			r.Skip(4)
		case op == 0x44:
			r.Skip(8)
		case op == 0xd0: // ref.null
			if t := r.Byte(); t != 0x70 && t != 0x6f {
				return ins, fmt.Errorf("%w: ref.null type at byte %d", ErrFormat, in.start)
			}
		case op == 0x00 || op == 0x01 || op == 0x05 || op == 0x0b || op == 0x0f || op == 0x1a || op == 0x1b || op == 0xd1 ||
			(op >= 0x45 && op <= 0xc4):
		case op == 0xfc:
			in.sub = r.U32()
			switch s := in.sub; {
			case s <= 7:
			case s == 8: // memory.init
				r.U32()
				r.U32()
			case s == 9 || s == 11 || s == 13 || (s >= 15 && s <= 17): // data.drop, memory.fill, elem.drop, table.grow/size/fill
				r.U32()
			case s == 10 || s == 12 || s == 14: // memory.copy, table.init, table.copy
				r.U32()
				r.U32()
			default:
				return ins, fmt.Errorf("%w: instruction 0xfc %d at byte %d", ErrFormat, s, in.start)
			}
		default:
			return ins, fmt.Errorf("%w: opcode 0x%02x at byte %d", ErrFormat, op, in.start)
		}
		in.end = r.P
		ins = append(ins, in)
	}
	if r.Err != nil {
		return ins, fmt.Errorf("%w: %v", ErrFormat, r.Err)
	}
	if len(ins) == 0 || ins[len(ins)-1].op != 0x0b {
		return ins, fmt.Errorf("%w: a body that does not end with end", ErrFormat)
	}
	return ins, nil
}

// valueType reports whether t is a value type of WebAssembly 2.0 (i32,
// i64, f32, f64, v128, funcref, externref); the reference types of later
// proposals are longer and refused.
func valueType(t byte) bool {
	return (t >= 0x7b && t <= 0x7f) || t == 0x70 || t == 0x6f
}
