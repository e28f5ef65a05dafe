package host

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
)

// The benchmarks compare the native core with the same core in
// pinhole.wasm under wazero, on a store of 10,000 orders: the 48 orders of
// testdata/orders/state.json replicated with new ids SO-<n>. The manifest is
// the example's with limits raised so that recordIds holds every id and the
// default window (8 records) is described.

const benchOrders = 10000

var bench struct {
	once               sync.Once
	load               []byte // load request
	observeA, observeB []byte // two observe requests that differ in one declared value
	err                error
}

// benchRequests builds the requests of the 10,000-order benchmarks once.
func benchRequests(b testing.TB) {
	b.Helper()
	bench.once.Do(func() {
		man, err := jsonval.Parse(readFile(b, "orders/manifest.json"))
		if err != nil {
			bench.err = err
			return
		}
		man.Set("limits", mustParse(`{"defaultLimit":8,"maxLimit":50,"maxRecordIds":10000,"maxResponseBytes":1048576}`))
		bench.load = []byte(`{"op":"load","key":"` + testKey + `","manifest":` + string(jsonval.Marshal(man)) + `}`)

		st, err := jsonval.Parse(readFile(b, "orders/state.json"))
		if err != nil {
			bench.err = err
			return
		}
		orders := st.Get("orders")
		base := orders.Get("items").Items
		items := make([]*jsonval.Value, benchOrders)
		for i := range items {
			o := *base[i%len(base)]
			o.Keys = append([]string(nil), o.Keys...)
			o.Vals = append([]*jsonval.Value(nil), o.Vals...)
			o.Set("number", jsonval.NewString("SO-"+strconv.Itoa(i+1)))
			items[i] = &o
		}
		orders.Set("items", &jsonval.Value{Kind: jsonval.Array, Items: items})
		bench.observeA = []byte(`{"op":"observe","state":` + string(jsonval.Marshal(st)) + `}`)
		orders.Set("filter", jsonval.NewString("open"))
		bench.observeB = []byte(`{"op":"observe","state":` + string(jsonval.Marshal(st)) + `}`)
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
}

func mustParse(s string) *jsonval.Value {
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}

// caller is one session of either runtime.
type caller struct {
	call  func(req []byte) []byte
	close func()
}

func nativeCaller(b *testing.B) caller {
	s := session.New()
	return caller{s.Call, func() {}}
}

func wazeroCaller(b *testing.B) caller {
	ctx := context.Background()
	s, err := testModule(b).NewSession(ctx)
	if err != nil {
		b.Fatal(err)
	}
	return caller{func(req []byte) []byte {
		out, err := s.Call(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}, func() { s.Close(ctx) }}
}

var runtimes = []struct {
	name string
	new  func(*testing.B) caller
}{{"native", nativeCaller}, {"wazero", wazeroCaller}}

// loaded returns a session of the runtime with the 10k state observed; the
// benchmark's cleanup closes it.
func loaded(b *testing.B, newCaller func(*testing.B) caller) caller {
	benchRequests(b)
	c := newCaller(b)
	b.Cleanup(c.close)
	for _, req := range [][]byte{bench.load, bench.observeA} {
		if err := ResponseError(c.call(req)); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// BenchmarkDescribe10k is one describe of the default window with all
// 10,000 record ids.
func BenchmarkDescribe10k(b *testing.B) {
	for _, rt := range runtimes {
		b.Run(rt.name, func(b *testing.B) {
			c := loaded(b, rt.new)
			req := []byte(`{"op":"describe"}`)
			out := c.call(req)
			if err := ResponseError(out); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(out)), "resp-bytes")
			b.ResetTimer()
			for range b.N {
				c.call(req)
			}
		})
	}
}

// BenchmarkObserve10k is one observe of a changed 10,000-order state: parse,
// prune to the declared paths, compare, build a snapshot.
func BenchmarkObserve10k(b *testing.B) {
	for _, rt := range runtimes {
		b.Run(rt.name, func(b *testing.B) {
			c := loaded(b, rt.new)
			b.SetBytes(int64(len(bench.observeA)))
			b.ResetTimer()
			for i := range b.N {
				if i > 0 && i%8 == 0 {
					// A session keeps its recent snapshots; start a new one
					// now and then so memory stays bounded.
					b.StopTimer()
					c.close()
					c = loaded(b, rt.new)
					b.StartTimer()
				}
				req := bench.observeA
				if i%2 == 0 {
					req = bench.observeB
				}
				c.call(req)
			}
		})
	}
}

// BenchmarkDescribeUnchanged is the polling cost when nothing changed: an
// observe of the same 10,000-order state (no new snapshot) and a describe.
func BenchmarkDescribeUnchanged(b *testing.B) {
	for _, rt := range runtimes {
		b.Run(rt.name, func(b *testing.B) {
			c := loaded(b, rt.new)
			req := []byte(`{"op":"describe"}`)
			b.ResetTimer()
			for range b.N {
				c.call(bench.observeA)
				c.call(req)
			}
		})
	}
}

// BenchmarkStartup is what a host pays before the first observe: compile
// (cold, or from an in-memory compilation cache), instantiate, load the
// example manifest.
func BenchmarkStartup(b *testing.B) {
	ctx := context.Background()
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		b.Fatal("build/pinhole.wasm is missing (run make wasm): ", err)
	}
	man := readFile(b, "orders/manifest.json")
	start := func(b *testing.B, m *Module) {
		s, err := m.NewSession(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Load(ctx, man, ""); err != nil {
			b.Fatal(err)
		}
		s.Close(ctx)
	}
	b.Run("compile+instantiate+load", func(b *testing.B) {
		for range b.N {
			m, err := Compile(ctx, wasm)
			if err != nil {
				b.Fatal(err)
			}
			start(b, m)
			m.Close(ctx)
		}
	})
	b.Run("cachedcompile+instantiate+load", func(b *testing.B) {
		testModule(b) // fills shared.cache
		for range b.N {
			m, err := Compile(ctx, wasm, WithCompilationCache(shared.cache))
			if err != nil {
				b.Fatal(err)
			}
			start(b, m)
			m.Close(ctx)
		}
	})
	b.Run("instantiate+load", func(b *testing.B) {
		m := testModule(b)
		for range b.N {
			start(b, m)
		}
	})
}

// BenchmarkRoundTrip is the cost of one small request through the ABI
// (alloc, write, call, read, free) against the same call made natively.
func BenchmarkRoundTrip(b *testing.B) {
	req := []byte(`{"op":"describe"}`) // not_loaded: a short error answer
	for _, rt := range runtimes {
		b.Run(rt.name, func(b *testing.B) {
			c := rt.new(b)
			defer c.close()
			b.ResetTimer()
			for range b.N {
				c.call(req)
			}
		})
	}
}
