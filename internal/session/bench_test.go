package session_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
)

// ordersState returns the example state grown to n orders by repeating its
// 48 orders under new ids.
func ordersState(tb testing.TB, n int) []byte {
	b, err := os.ReadFile("../../testdata/orders/state.json")
	if err != nil {
		tb.Fatal(err)
	}
	st, err := jsonval.Parse(b)
	if err != nil {
		tb.Fatal(err)
	}
	items := st.Get("orders").Get("items")
	base := items.Items
	items.Items = make([]*jsonval.Value, n)
	for i := range items.Items {
		src := base[i%len(base)]
		cp := *src
		cp.Keys = append([]string(nil), src.Keys...)
		cp.Vals = append([]*jsonval.Value(nil), src.Vals...)
		cp.Set("number", jsonval.NewString(fmt.Sprintf("SO-%d", 100000+i)))
		items.Items[i] = &cp
	}
	return jsonval.Marshal(st)
}

func loaded(tb testing.TB, n int) (*session.Session, []byte) {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		tb.Fatal(err)
	}
	s := session.New()
	ok(tb, s.Call([]byte(`{"op":"load","key":"`+key+`","manifest":`+string(m)+`}`)))
	observe := []byte(`{"op":"observe","state":` + string(ordersState(tb, n)) + `}`)
	ok(tb, s.Call(observe))
	return s, observe
}

func ok(tb testing.TB, resp []byte) {
	if strings.HasPrefix(string(resp), `{"error"`) {
		tb.Fatalf("%s", resp)
	}
}

// BenchmarkObserve10k is a full observe of 10,000 orders: parse, prune, snapshot.
func BenchmarkObserve10k(b *testing.B) {
	s, observe := loaded(b, 10000)
	b.SetBytes(int64(len(observe)))
	for i := 0; i < b.N; i++ {
		// Alternate one value so every observe builds a new snapshot.
		s.Call(observe)
	}
}

// BenchmarkObservePatch10k changes one record of 10,000 with a JSON Patch.
func BenchmarkObservePatch10k(b *testing.B) {
	s, _ := loaded(b, 10000)
	patches := [2][]byte{
		[]byte(`{"op":"observe","patch":[{"op":"replace","path":"/orders/items/5000/status","value":"Shipped"}]}`),
		[]byte(`{"op":"observe","patch":[{"op":"replace","path":"/orders/items/5000/status","value":"On hold"}]}`),
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ok(b, s.Call(patches[i%2]))
	}
}

// BenchmarkDescribe10k repeats one describe of an unchanged snapshot of
// 10,000 orders (window of 8, 1,000 ids): the session answers it from its
// last-describe cache.
func BenchmarkDescribe10k(b *testing.B) {
	s, _ := loaded(b, 10000)
	req := []byte(`{"op":"describe"}`)
	ok(b, s.Call(req))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Call(req)
	}
}

// BenchmarkDescribe10kUncached alternates two windows, so every describe
// projects (the session keeps only the last answer).
func BenchmarkDescribe10kUncached(b *testing.B) {
	s, _ := loaded(b, 10000)
	reqs := [2][]byte{[]byte(`{"op":"describe"}`), []byte(`{"op":"describe","offset":8}`)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Call(reqs[i%2])
	}
}

// copyChain is an observe whose patch copies a record's items array into
// itself n times: each copy doubles what the array holds.
func copyChain(n int) []byte {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = `{"op":"copy","from":"/orders/items/0/items","path":"/orders/items/0/items/-"}`
	}
	return []byte(`{"op":"observe","patch":[` + strings.Join(ops, ",") + `]}`)
}

// BenchmarkCopyChain22 is the patch of 22 copies of copies on one record's
// items, then a describe of that record: the cost of a patch must follow
// its size and the state's, not double with every copy.
func BenchmarkCopyChain22(b *testing.B) {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		b.Fatal(err)
	}
	load := []byte(`{"op":"load","key":"` + key + `","manifest":` + string(m) + `}`)
	observe := []byte(`{"op":"observe","state":{"orders":{"items":[{"number":"SO-1","items":[1]}]}}}`)
	patch, describe := copyChain(22), []byte(`{"op":"describe","record":["SO-1"]}`)
	b.ReportAllocs()
	for b.Loop() {
		s := session.New()
		ok(b, s.Call(load))
		ok(b, s.Call(observe))
		s.Call(patch)
		s.Call(describe)
	}
}

// BenchmarkLoadOrders is a load of the orders manifest: parse, compile and
// the reads. In the module it is the first call of a cold start, where
// every allocation and every call of a large function counts against V8's
// tier-up budgets (BENCHMARKS.md, "Where the start-up goes").
func BenchmarkLoadOrders(b *testing.B) {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		b.Fatal(err)
	}
	req := []byte(`{"op":"load","key":"` + key + `","manifest":` + string(m) + `}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ok(b, session.New().Call(req))
	}
}
