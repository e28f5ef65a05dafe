//go:build linux

package host

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// noReservePath is the module built with -tags pinhole_noreserve.
var noReservePath = filepath.Join("..", "build", "pinhole-noreserve.wasm")

// declaredSlice is what the bridge sends for an order of the example
// manifest: the declared fields only.
var declaredSlice = []struct {
	key    string
	fields []string // nil: the whole value
}{
	{"number", nil}, {"status", nil}, {"customer", []string{"name", "email", "phone"}},
	{"payment", []string{"card"}}, {"totals", []string{"grand"}}, {"items", nil}, {"note", nil},
}

// largeObserve is an observe request of n orders as the bridge sends it
// for the example manifest: the 48 orders of testdata/orders/state.json
// cut to their declared fields and replicated with new ids SO-<n>.
func largeObserve(tb testing.TB, n int) []byte {
	tb.Helper()
	st, err := jsonval.Parse(readFile(tb, "orders/state.json"))
	if err != nil {
		tb.Fatal(err)
	}
	orders := st.Get("orders")
	base := orders.Get("items").Items
	items := make([]*jsonval.Value, n)
	for i := range items {
		src, o := base[i%len(base)], jsonval.NewObject()
		for _, d := range declaredSlice {
			v := src.Get(d.key)
			if d.fields != nil {
				sub := jsonval.NewObject()
				for _, f := range d.fields {
					sub.Set(f, v.Get(f))
				}
				v = sub
			}
			o.Set(d.key, v)
		}
		o.Set("number", jsonval.NewString("SO-"+strconv.Itoa(i+1)))
		items[i] = o
	}
	orders.Set("items", &jsonval.Value{Kind: jsonval.Array, Items: items})
	return []byte(`{"op":"observe","state":` + string(jsonval.Marshal(st)) + `}`)
}

// usage is the process's peak resident set so far and its CPU time.
func usage(b *testing.B) (peakRSS float64, cpu time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Maxrss) * 1024, // kilobytes on Linux
		time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkObserve100kCold is a fresh session's first observe of 100,000
// orders (the declared slice, about 26 MB) under wazero: with memory
// reserved (the default), with wazero's copying growth, and with copying
// growth and the module built without its one-step heap reservation
// (build/pinhole-noreserve.wasm: both halves of the change undone).
// Reported: wall and CPU milliseconds per MB of request, the module's
// memory after the call, and the process's peak RSS (the cases run in that
// order, so a later case's peak is at least an earlier one's). make
// bench-wazero runs it; bench-go leaves it out (one operation takes seconds).
func BenchmarkObserve100kCold(b *testing.B) {
	ctx := context.Background()
	testModule(b) // fills shared.cache
	man := readFile(b, "orders/manifest.json")
	req := largeObserve(b, 100000)
	for _, tc := range []struct {
		name, wasm string
		on         bool
	}{{"reserve", wasmPath, true}, {"copy", wasmPath, false}, {"copy,noreserve-module", noReservePath, false}} {
		b.Run(tc.name, func(b *testing.B) {
			wasm, err := os.ReadFile(tc.wasm)
			if err != nil {
				b.Fatal(err, " (make bench-wazero builds it)")
			}
			mod, err := Compile(ctx, wasm, WithCompilationCache(shared.cache), WithMemoryReserve(tc.on))
			if err != nil {
				b.Fatal(err)
			}
			defer mod.Close(ctx)
			b.SetBytes(int64(len(req)))
			var memory uint32
			var cpu time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				s, err := mod.NewSession(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Load(ctx, man, testKey); err != nil {
					b.Fatal(err)
				}
				_, c0 := usage(b)
				b.StartTimer()
				if _, err := s.Observe(ctx, req[len(`{"op":"observe","state":`):len(req)-1]); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				_, c1 := usage(b)
				cpu += c1 - c0
				memory = s.mod.Memory().Size()
				s.Close(ctx)
				b.StartTimer()
			}
			mb := float64(len(req)) / 1e6
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/mb, "ms/MB")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N)/mb, "cpu-ms/MB")
			b.ReportMetric(float64(memory), "memory-bytes")
			peak, _ := usage(b)
			b.ReportMetric(peak, "peak-rss-bytes")
		})
	}
}
