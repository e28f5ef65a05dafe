package addrfold

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/pinholectx/pinhole/internal/wasmbin"
)

// Instructions, as the bytes of a body.
func localGet(i byte) []byte { return []byte{0x20, i} }
func localSet(i byte) []byte { return []byte{0x21, i} }
func i64Const(v int64) []byte {
	return wasmbin.AppendS64([]byte{opI64Const}, v)
}
func i32Const(v int32) []byte { return wasmbin.AppendS64([]byte{0x41}, int64(v)) }
func mem(op byte, align, offset uint32) []byte {
	return wasmbin.AppendU32(wasmbin.AppendU32([]byte{op}, align), offset)
}

var (
	ext     = []byte{opI64ExtendU32}
	add     = []byte{opI64Add}
	wrap    = []byte{opI32WrapI64}
	drop    = []byte{0x1a}
	block   = []byte{0x02, 0x40}
	end     = []byte{0x0b}
	i64Add  = []byte{opI64Add}
	i64Load = byte(0x29)
	i64Stor = byte(0x37)
	i32Stor = byte(0x36)
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// sp is Go's address of a stack slot: $sp (local 0) + c, wrapped.
func sp(c int64) []byte { return cat(localGet(0), ext, i64Const(c), add, wrap) }

// module is a module with one page of memory and one exported function
// run(i32) -> i64 with one i64 local, whose instructions are body.
func module(body []byte) []byte {
	return moduleOf(cat([]byte{1, 1, 0x7e}, body, end)) // one local of type i64
}

// moduleOf is module with fn as the whole function body.
func moduleOf(fn []byte) []byte {
	section := func(id byte, content []byte) []byte {
		return cat([]byte{id}, wasmbin.AppendU32(nil, uint32(len(content))), content)
	}
	return cat(
		[]byte("\x00asm\x01\x00\x00\x00"),
		section(1, []byte{1, 0x60, 1, 0x7f, 1, 0x7e}),              // (i32) -> i64
		section(3, []byte{1, 0}),                                   // one function of type 0
		section(5, []byte{1, 1, 1, 2}),                             // memory: one page, two at most
		section(7, cat([]byte{1, 3}, []byte("run"), []byte{0, 0})), // export "run"
		section(10, cat([]byte{1}, wasmbin.AppendU32(nil, uint32(len(fn))), fn)),
	)
}

var cases = []struct {
	name    string
	body    []byte // without the final end
	folded  int
	removed int
	want    []byte // the folded body, when it changes
}{
	{
		name: "stack slot load", body: cat(sp(16), mem(i64Load, 3, 8)),
		folded: 1, removed: 4, want: cat(localGet(0), mem(i64Load, 3, 24)),
	},
	{
		name: "stack slot store and load", body: cat(sp(16), i64Const(42), mem(i64Stor, 3, 0), sp(8), mem(i64Load, 3, 8)),
		folded: 2, removed: 8, want: cat(localGet(0), i64Const(42), mem(i64Stor, 3, 16), localGet(0), mem(i64Load, 3, 16)),
	},
	{
		name: "store of a computed value", body: cat(sp(32), i64Const(5), i64Const(6), i64Add, mem(i64Stor, 3, 0), sp(32), mem(i64Load, 3, 0)),
		folded: 2, removed: 8,
		want: cat(localGet(0), i64Const(5), i64Const(6), i64Add, mem(i64Stor, 3, 32), localGet(0), mem(i64Load, 3, 32)),
	},
	{
		name: "i64 pointer", body: cat(localGet(0), ext, localSet(1), localGet(1), i64Const(40), add, wrap, i64Const(7), mem(i64Stor, 3, 0), localGet(1), i64Const(40), add, wrap, mem(i64Load, 3, 0)),
		folded: 2, removed: 4,
		want: cat(localGet(0), ext, localSet(1), localGet(1), wrap, i64Const(7), mem(i64Stor, 3, 40), localGet(1), wrap, mem(i64Load, 3, 40)),
	},
	{
		name: "a fold that makes another", body: cat(localGet(0), ext, i64Const(8), add, wrap, ext, i64Const(16), add, wrap, mem(i64Load, 3, 0)),
		folded: 2, removed: 8, want: cat(localGet(0), mem(i64Load, 3, 24)),
	},
	{
		name: "wrap of extend", body: cat(localGet(0), ext, wrap, mem(i64Load, 3, 0)),
		removed: 2, want: cat(localGet(0), mem(i64Load, 3, 0)),
	},
	{
		name: "address stored as a value", body: cat(i32Const(64), sp(8), mem(i32Stor, 2, 0), i32Const(64), mem(i64Load, 3, 0)),
	},
	{
		name: "address across a block", body: cat(sp(8), block, end, mem(i64Load, 3, 0)),
	},
	{
		name: "address dropped", body: cat(sp(8), drop, i64Const(3)),
	},
	{
		name: "negative constant", body: cat(sp(-8), mem(i64Load, 3, 0)),
	},
	{
		name: "constant too large", body: cat(sp(maxOffset), mem(i64Load, 3, 0)),
	},
	{
		name: "offsets too large together", body: cat(sp(maxOffset/2), mem(i64Load, 3, maxOffset/2)),
	},
}

func TestFold(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := module(c.body)
			keep := bytes.Clone(in)
			out, st, err := Fold(in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(in, keep) {
				t.Fatal("Fold changed its input")
			}
			if st.Folded != c.folded || st.Removed != c.removed || st.Functions != 1 {
				t.Errorf("stats %+v, want %d folded, %d removed, 1 function", st, c.folded, c.removed)
			}
			want := in
			if c.want != nil {
				want = module(c.want)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("folded module\n got %x\nwant %x", out, want)
			}
			if st.BytesIn-st.BytesOut != len(in)-len(out) {
				t.Errorf("code bytes %d -> %d, module %d -> %d", st.BytesIn, st.BytesOut, len(in), len(out))
			}
		})
	}
}

// TestFoldRuns runs each case's module and its folded form under wazero
// and checks that they return the same and leave the same memory, for
// stack pointers across the page.
func TestFoldRuns(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer r.Close(ctx)
	// run returns the result and the memory after, or 0 and nil on a trap.
	run := func(t *testing.T, bin []byte, arg uint64) (uint64, []byte) {
		m, err := r.Instantiate(ctx, bin)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close(ctx)
		res, err := m.ExportedFunction("run").Call(ctx, arg)
		if err != nil {
			return 0, nil
		}
		b, _ := m.Memory().Read(0, m.Memory().Size())
		return res[0], bytes.Clone(b)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := module(c.body)
			out, _, err := Fold(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, arg := range []uint64{0, 8, 1000, 65536 - 64} {
				a, am := run(t, in, arg)
				b, bm := run(t, out, arg)
				if a != b || !bytes.Equal(am, bm) || (am == nil) != (bm == nil) {
					t.Errorf("run(%d): %d against %d folded, trapped %v against %v, memory equal: %v",
						arg, a, b, am == nil, bm == nil, bytes.Equal(am, bm))
				}
			}
		})
	}
}

func TestFoldRefuses(t *testing.T) {
	good := module(sp(16))
	bad := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"not wasm", []byte("\x00asn\x01\x00\x00\x00")},
		{"version 2", []byte("\x00asm\x02\x00\x00\x00")},
		{"truncated", good[:len(good)-3]},
		{"section past the end", append(bytes.Clone(good[:8]), 1, 0x7f)},
		{"SIMD instruction", module(cat(localGet(0), []byte{0xfd, 0x0c}))},
		{"unknown 0xfc instruction", module([]byte{0xfc, 0x20})},
		{"local of a typed reference", moduleOf(cat([]byte{1, 1, 0x63, 0x28}, sp(16), mem(i64Load, 3, 0), end))},
		{"block of a typed reference", module(cat([]byte{0x02, 0x63, 0x70}, end, sp(16), mem(i64Load, 3, 0)))},
		{"body without end", moduleOf([]byte{1, 1, 0x7e, 0x20, 0})},
		{"body past its section", moduleOf([]byte{1, 1, 0x7e, 0x0c})},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			if _, _, err := Fold(b.in); !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v, want ErrFormat", err)
			}
		})
	}
}

// FuzzFold checks that Fold never panics on any input, and that what it
// returns it reads again.
func FuzzFold(f *testing.F) {
	for _, c := range cases {
		f.Add(module(c.body))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, _, err := Fold(in)
		if err != nil {
			return
		}
		if _, _, err := Fold(out); err != nil {
			t.Fatalf("folded module unreadable: %v", err)
		}
	})
}

// FuzzFoldBody folds modules whose function body is the fuzzer's, and
// checks, for every body wazero accepts, that the folded module compiles
// too and that both return the same, trap alike and leave the same memory.
func FuzzFoldBody(f *testing.F) {
	for _, c := range cases {
		f.Add(c.body, uint32(1000))
	}
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter().WithCloseOnContextDone(true))
	defer r.Close(ctx)
	// run returns the result and the memory after; on a trap, trapped; after
	// 100 ms, neither.
	run := func(c wazero.CompiledModule, arg uint32) (res uint64, memory []byte, trapped bool) {
		ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		m, err := r.InstantiateModule(ctx, c, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			return 0, nil, ctx.Err() == nil
		}
		defer m.Close(ctx)
		out, err := m.ExportedFunction("run").Call(ctx, uint64(arg))
		if err != nil {
			return 0, nil, ctx.Err() == nil
		}
		b, _ := m.Memory().Read(0, m.Memory().Size())
		return out[0], bytes.Clone(b), false
	}
	f.Fuzz(func(t *testing.T, body []byte, arg uint32) {
		in := module(body)
		out, _, err := Fold(in)
		if err != nil {
			return
		}
		a, err := r.CompileModule(ctx, in)
		if err != nil {
			return
		}
		b, err := r.CompileModule(ctx, out)
		if err != nil {
			t.Fatalf("folded module does not compile: %v", err)
		}
		ra, ma, trapa := run(a, arg)
		rb, mb, _ := run(b, arg)
		if ma != nil && mb != nil && (ra != rb || !bytes.Equal(ma, mb)) {
			t.Fatalf("run(%d): %d against %d folded, memory equal: %v", arg, ra, rb, bytes.Equal(ma, mb))
		}
		// A folded address traps where the original wrapped past 2^32 and
		// read low memory; the reverse never happens.
		if trapa && mb != nil {
			t.Fatalf("run(%d): the original traps, the folded module does not", arg)
		}
	})
}
