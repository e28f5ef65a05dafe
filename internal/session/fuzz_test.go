package session_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
)

// Fuzz targets of the session: arbitrary states, patches and prepare
// inputs against the bundled orders manifest. `make fuzz` runs each for
// FUZZTIME; the normal suite replays the seeds from testdata/fuzz (shared
// with the JS suites) and any failing input saved under testdata/fuzz/ of
// this package. Every response passes checkResponse: valid JSON, no
// canary, no invisible character, nothing the credential net catches, and
// describe answers within maxResponseBytes with consistent totals.

// seedLines returns the lines of testdata/fuzz/name.
func seedLines(f *testing.F, name string) [][]byte {
	data, err := os.ReadFile("../../testdata/fuzz/" + name)
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, append([]byte(nil), sc.Bytes()...))
	}
	if len(out) == 0 {
		f.Fatalf("no seeds in %s", name)
	}
	return out
}

func readFile(f *testing.F, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// fuzzCanaries are planted in undeclared places of every fuzzed state.
// With orders, the protected and undeclared values of the orders example
// (card numbers, phone numbers, e-mail local parts, internal notes,
// addresses, the session token) are canaries too: only where the state is
// not fuzzed, since a fuzzed state or patch may put such a value in a
// plain field, where the manifest shows it.
func fuzzCanaries(f *testing.F, orders bool) *canaries {
	cs := newCanaries(rand.New(rand.NewPCG(7, 7)))
	for i := 0; i < 4; i++ {
		cs.text()
	}
	if !orders {
		return cs
	}
	var st struct {
		Session struct{ Token string }
		Orders  struct {
			Items []struct {
				Customer struct {
					Email, Phone string
					Address      struct{ Street string }
				}
				Payment      struct{ Card string }
				InternalNote string
			}
		}
	}
	if err := json.Unmarshal(readFile(f, "../../testdata/orders/state.json"), &st); err != nil {
		f.Fatal(err)
	}
	cs.register(st.Session.Token)
	for _, it := range st.Orders.Items {
		cs.register(it.Payment.Card)
		cs.register(it.Customer.Phone)
		if at := strings.IndexByte(it.Customer.Email, '@'); at >= 8 {
			cs.register(it.Customer.Email[:at])
		}
		cs.register(it.InternalNote)
		cs.register(it.Customer.Address.Street)
	}
	if len(cs.cores) < 100 {
		f.Fatalf("only %d canaries from the orders example", len(cs.cores))
	}
	return cs
}

// plant adds canaries to the state: a top-level member, and a member of
// every object in /orders/items (both undeclared by the orders manifest).
func plant(v *jsonval.Value, cs *canaries) {
	if v == nil || v.Kind != jsonval.Object {
		return
	}
	v.Set(cs.cores[0], jsonval.NewString(cs.cores[2]))
	orders := v.Get("orders")
	if orders == nil || orders.Kind != jsonval.Object {
		return
	}
	if items := orders.Get("items"); items != nil && items.Kind == jsonval.Array {
		for _, it := range items.Items {
			if it != nil && it.Kind == jsonval.Object && it.Get("secretNote") == nil {
				it.Set("secretNote", jsonval.NewString(cs.cores[4]))
			}
		}
	}
}

// ordersSession loads the orders manifest.
func ordersSession(t testing.TB, manifest []byte) *session.Session {
	s := session.New()
	out := s.Call([]byte(`{"op":"load","key":"fuzz-session-key-01","manifest":` + string(manifest) + `}`))
	if !bytes.HasPrefix(out, []byte(`{"loaded":true`)) {
		t.Fatalf("load: %s", out)
	}
	return s
}

// checkDescribeShape checks the totals and window of any describe answer.
func checkDescribeShape(t testing.TB, out []byte) {
	t.Helper()
	r := decode(t, out)
	if r["error"] != nil {
		return
	}
	ctx := r["context"].(map[string]any)
	total, idsTotal := num(t, ctx["recordsTotal"]), num(t, ctx["recordIdsTotal"])
	ids, recs := asList(ctx["recordIds"]), asList(ctx["records"])
	if idsTotal > total || len(ids) > idsTotal || len(recs) > idsTotal {
		t.Fatalf("inconsistent totals: recordsTotal %d, recordIdsTotal %d, %d ids, %d records", total, idsTotal, len(ids), len(recs))
	}
	if num(t, ctx["feedbackTotal"]) < len(asList(ctx["feedback"])) || num(t, ctx["unavailableTotal"]) < len(asList(ctx["unavailable"])) {
		t.Fatalf("a total is below its list: %s", out)
	}
	if w, ok := ctx["recordWindow"].(map[string]any); ok {
		if num(t, w["returned"]) != len(recs) || num(t, w["total"]) < len(recs) {
			t.Fatalf("window %v for %d records", w, len(recs))
		}
		if next, ok := w["next"]; ok && num(t, next) != num(t, w["offset"])+len(recs) {
			t.Fatalf("window %v: next is not offset+returned", w)
		}
	}
}

func FuzzObserveState(f *testing.F) {
	manifest := readFile(f, "../../testdata/orders/manifest.json")
	f.Add(readFile(f, "../../testdata/orders/state.json"))
	for _, s := range seedLines(f, "states.jsonl") {
		f.Add(s)
	}
	cs := fuzzCanaries(f, false)
	f.Fuzz(func(t *testing.T, state []byte) {
		s := ordersSession(t, manifest)
		v, err := jsonval.Parse(state)
		if err == nil {
			plant(v, cs)
			state = jsonval.Marshal(v)
		}
		out := s.Call([]byte(`{"op":"observe","state":` + string(state) + `}`))
		if err != nil && !bytes.Contains(out, []byte(`"error"`)) {
			t.Fatalf("observe of invalid JSON did not fail: %s", out)
		}
		checkResponse(t, "observe", out, cs, 0)
		for _, req := range []string{`{"op":"describe"}`, `{"op":"describe","offset":3,"limit":50}`, `{"op":"describe","record":["SO-1001","SO-1"]}`} {
			out := s.Call([]byte(req))
			checkResponse(t, req, out, cs, 65536)
			checkDescribeShape(t, out)
		}
	})
}

func FuzzObservePatch(f *testing.F) {
	manifest := readFile(f, "../../testdata/orders/manifest.json")
	state := readFile(f, "../../testdata/orders/state.json")
	for _, p := range seedLines(f, "patches.jsonl") {
		f.Add(p)
	}
	cs := fuzzCanaries(f, false)
	v, err := jsonval.Parse(state)
	if err != nil {
		f.Fatal(err)
	}
	plant(v, cs)
	planted := jsonval.Marshal(v)
	f.Fuzz(func(t *testing.T, patch []byte) {
		s := ordersSession(t, manifest)
		out := s.Call([]byte(`{"op":"observe","state":` + string(planted) + `}`))
		checkResponse(t, "observe", out, cs, 0)
		out = s.Call([]byte(`{"op":"observe","patch":` + string(patch) + `}`))
		checkResponse(t, "observe patch", out, cs, 0)
		out = s.Call([]byte(`{"op":"describe","limit":50}`))
		checkResponse(t, "describe", out, cs, 65536)
		checkDescribeShape(t, out)
		checkResponse(t, "after", s.Call([]byte(`{"op":"after","since":"s1"}`)), cs, 65536)
	})
}

func FuzzPrepare(f *testing.F) {
	manifest := readFile(f, "../../testdata/orders/manifest.json")
	state := readFile(f, "../../testdata/orders/state.json")
	for _, in := range seedLines(f, "prepare.jsonl") {
		f.Add("order.ship", "SO-1001", in)
		f.Add("orders.export", "", in)
		f.Add("order.charge", "SO-1001", in)
		f.Add("order.charge", "SO-1002", in)
	}
	f.Add("order.refund", "SO-1002", []byte(`{"amount":1}`))
	cs := fuzzCanaries(f, true)
	cards := ordersCards(f, state)
	f.Fuzz(func(t *testing.T, capability, record string, input []byte) {
		s := ordersSession(t, manifest)
		s.Call([]byte(`{"op":"observe","state":` + string(state) + `}`))
		desc := s.Call([]byte(`{"op":"describe"}`))
		// Offer the agent's view of tokens: "ph_" and "al_" in the input
		// become the first placeholder and alias the describe showed (the
		// card and phone of SO-1001).
		raw := input
		for _, prefix := range []string{"ph_", "al_"} {
			if i := bytes.Index(desc, []byte(`"`+prefix)); i >= 0 && bytes.Contains(input, []byte(prefix)) {
				tok := desc[i+1 : i+1+bytes.IndexByte(desc[i+1:], '"')]
				input = bytes.ReplaceAll(input, []byte(prefix), tok)
			}
		}
		req := fmt.Appendf(nil, `{"op":"prepare","capability":%s,"record":%s,"snapshot":"s1","input":%s}`,
			jsonval.AppendString(nil, capability), jsonval.AppendString(nil, record), input)
		out := s.Call(req)
		if !jsonValid(out) {
			t.Fatalf("prepare: invalid JSON %q", out)
		}
		r := decode(t, out)
		if r["ok"] == true {
			// The resolved input is for the app's handler. A protected
			// value may be there only in the declared slot (order.charge's
			// card), and only the acted-on record's own; anything else
			// must have been typed by the caller.
			in, _ := r["input"].(map[string]any)
			if card, ok := in["card"]; ok && capability == "order.charge" {
				if card != cards[record] && !bytes.Contains(raw, []byte(fmt.Sprint(card))) {
					t.Fatalf("prepare resolved a card that is not %s's: %s", record, out)
				}
				delete(in, "card")
			}
			if c := cs.find(mustJSON(in)); c != "" && !bytes.Contains(raw, []byte(c)) {
				t.Fatalf("prepare resolved a protected value outside a token slot: %s", out)
			}
			delete(r, "input")
			out = mustJSON(r)
		}
		checkResponse(t, "prepare", out, cs, 0)
		checkResponse(t, "after", s.Call([]byte(`{"op":"after","since":"s1"}`)), cs, 65536)
	})
}

// ordersCards maps each order number of the orders state to its card.
func ordersCards(f *testing.F, state []byte) map[string]string {
	var st struct {
		Orders struct {
			Items []struct {
				Number  string
				Payment struct{ Card string }
			}
		}
	}
	if err := json.Unmarshal(state, &st); err != nil {
		f.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range st.Orders.Items {
		out[it.Number] = it.Payment.Card
	}
	return out
}

func jsonValid(b []byte) bool {
	_, err := jsonval.Parse(b)
	return err == nil
}
