package session_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
)

// The conformance vectors in testdata/vectors are the shared truth of every
// runtime: NAME.in.jsonl holds one request per line, NAME.out.jsonl the exact
// response of each. This test writes both from the table below when run with
// -update, and otherwise checks that the committed inputs are the table's and
// that the native core answers every line byte for byte. host/, js/, web/
// and cmd/worker replay the same files.
var update = flag.Bool("update", false, "rewrite testdata/vectors from the table (review the diff!)")

const vectorDir = "../../testdata/vectors"

// key is the fixed session key of every vector, so aliases and placeholders
// are stable in golden files.
const key = "conformance-key-0001"

func TestVectors(t *testing.T) {
	vs := vectors(t)
	if *update {
		old, _ := filepath.Glob(filepath.Join(vectorDir, "*.jsonl"))
		for _, f := range old {
			os.Remove(f)
		}
	}
	names := map[string]bool{}
	for _, v := range vs {
		if names[v.name] {
			t.Fatalf("duplicate vector name %s", v.name)
		}
		names[v.name] = true
		t.Run(v.name, func(t *testing.T) {
			var in, out bytes.Buffer
			s := session.New()
			for _, req := range v.reqs {
				if bytes.IndexByte(req, '\n') >= 0 {
					t.Fatalf("request holds a newline")
				}
				in.Write(req)
				in.WriteByte('\n')
				out.Write(s.Call(req))
				out.WriteByte('\n')
			}
			inPath := filepath.Join(vectorDir, v.name+".in.jsonl")
			outPath := filepath.Join(vectorDir, v.name+".out.jsonl")
			if *update {
				must(t, os.WriteFile(inPath, in.Bytes(), 0o644))
				must(t, os.WriteFile(outPath, out.Bytes(), 0o644))
				return
			}
			gotIn, err := os.ReadFile(inPath)
			must(t, err)
			if !bytes.Equal(gotIn, in.Bytes()) {
				t.Fatalf("%s differs from the table; run go test ./internal/session -run TestVectors -update and review", inPath)
			}
			want, err := os.ReadFile(outPath)
			must(t, err)
			wl, gl := strings.Split(string(want), "\n"), strings.Split(out.String(), "\n")
			for i := range gl {
				if i >= len(wl) || wl[i] != gl[i] {
					t.Fatalf("line %d:\n got %s\nwant %s", i+1, clip(gl[i]), clip(at(wl, i)))
				}
			}
			if len(wl) != len(gl) {
				t.Fatalf("golden has %d lines, got %d", len(wl), len(gl))
			}
		})
	}
	if !*update {
		files, _ := filepath.Glob(filepath.Join(vectorDir, "*.in.jsonl"))
		if len(files) != len(vs) {
			t.Fatalf("%d vector files on disk, %d in the table", len(files), len(vs))
		}
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<missing>"
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type vector struct {
	name string
	reqs [][]byte
}

// doc is a mutable JSON document used to derive variants of the example.
type doc struct{ v *jsonval.Value }

func load(t *testing.T, path string) doc {
	b, err := os.ReadFile(path)
	must(t, err)
	v, err := jsonval.Parse(b)
	must(t, err)
	return doc{v}
}

func parse(t *testing.T, s string) *jsonval.Value {
	t.Helper()
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		t.Fatalf("bad JSON in table: %v: %s", err, s)
	}
	return v
}

// with returns a copy of d with the value at ptr set (created in its parent
// object, or replacing an array element) to the JSON text val.
func (d doc) with(t *testing.T, ptr, val string) doc {
	t.Helper()
	p, err := jsonval.ParsePointer(ptr)
	must(t, err)
	return doc{setAt(t, d.v, p, parse(t, val))}
}

// without returns a copy of d without the member at ptr.
func (d doc) without(t *testing.T, ptr string) doc {
	t.Helper()
	p, err := jsonval.ParsePointer(ptr)
	must(t, err)
	return doc{setAt(t, d.v, p, nil)}
}

func setAt(t *testing.T, v *jsonval.Value, p jsonval.Pointer, val *jsonval.Value) *jsonval.Value {
	if len(p) == 0 {
		return val
	}
	cp := *v
	switch v.Kind {
	case jsonval.Object:
		cp.Keys = append([]string(nil), v.Keys...)
		cp.Vals = append([]*jsonval.Value(nil), v.Vals...)
		out := &jsonval.Value{Kind: jsonval.Object}
		found := false
		for i, k := range cp.Keys {
			if k == p[0] {
				found = true
				if nv := setAt(t, cp.Vals[i], p[1:], val); nv != nil {
					out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, nv)
				}
				continue
			}
			out.Keys, out.Vals = append(out.Keys, k), append(out.Vals, cp.Vals[i])
		}
		if !found && val != nil {
			if len(p) != 1 {
				t.Fatalf("setAt: missing parent for %v", p)
			}
			out.Keys, out.Vals = append(out.Keys, p[0]), append(out.Vals, val)
		}
		return out
	case jsonval.Array:
		i, ok := jsonval.ArrayIndex(p[0])
		if ok && i == len(v.Items) && len(p) == 1 && val != nil {
			cp.Items = append(append([]*jsonval.Value(nil), v.Items...), val)
			return &cp
		}
		if !ok || i >= len(v.Items) {
			t.Fatalf("setAt: bad index in %v", p)
		}
		cp.Items = append([]*jsonval.Value(nil), v.Items...)
		cp.Items[i] = setAt(t, v.Items[i], p[1:], val)
		if cp.Items[i] == nil {
			cp.Items = append(cp.Items[:i], cp.Items[i+1:]...)
		}
		return &cp
	}
	t.Fatalf("setAt: %v goes through a scalar", p)
	return nil
}

func (d doc) json() string { return string(jsonval.Marshal(d.v)) }

func loadReq(m doc) []byte {
	return []byte(`{"op":"load","key":"` + key + `","manifest":` + m.json() + `}`)
}

func observeReq(s doc) []byte { return []byte(`{"op":"observe","state":` + s.json() + `}`) }

func patchReq(ops string) []byte { return []byte(`{"op":"observe","patch":` + ops + `}`) }

func prepareReq(params string) []byte { return []byte(`{"op":"prepare",` + params + `}`) }

func afterReq(since string) []byte { return []byte(`{"op":"after","since":"` + since + `"}`) }

// ph and al are the tokens the session key gives a value (JSON text) under
// the orders example's session scope, so vectors can hand back what an
// agent was shown.
func ph(t *testing.T, value string) string { return ordersKeyer().Placeholder(parse(t, value)) }

func al(t *testing.T, value string) string { return ordersKeyer().Alias(parse(t, value)) }

func ordersKeyer() *expose.Keyer {
	k := expose.NewKeyer([]byte(key))
	k.SetScope([]byte(`"acme-shop"`))
	return k
}

// allStatus returns the state's orders with every status set to status.
func allStatus(t *testing.T, st doc, status string) string {
	items := st.v.Get("orders").Get("items")
	d := doc{items}
	for i := range items.Items {
		d = d.with(t, "/"+strconv.Itoa(i)+"/status", strconv.Quote(status))
	}
	return d.json()
}

func describeReq(params string) []byte {
	if params == "" {
		return []byte(`{"op":"describe"}`)
	}
	return []byte(`{"op":"describe",` + params + `}`)
}

func lines(ss ...string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

func vectors(t *testing.T) []vector {
	m := load(t, "../../testdata/orders/manifest.json")
	st := load(t, "../../testdata/orders/state.json")
	// seq is load + observe + the given requests.
	seq := func(m, s doc, reqs ...[]byte) [][]byte {
		return append([][]byte{loadReq(m), observeReq(s)}, reqs...)
	}
	d := describeReq
	small := parse(t, `{"pinhole":1,"regions":[{"id":"list"}],"collections":[{"region":"list","from":"/items","id":"/id","fields":{"name":{"from":"/name"}}}]}`)
	sm := doc{small}
	badManifest := func(path, val string) [][]byte {
		if val == "" {
			return [][]byte{loadReq(m.without(t, path))}
		}
		return [][]byte{loadReq(m.with(t, path, val))}
	}
	longName := strings.Repeat("Ana Maria Lovelace-Haddad ", 8) // 208 characters
	// ml adds the capabilities of the token vectors: a page-scope filter
	// whose handler would write its input into a plain page parameter (the
	// laundering target), and a page-scope call-back whose phone slot lets
	// the token choose the record.
	ml := m.with(t, "/capabilities/5", `{"name":"orders.filter","description":"Filter the list by status","scope":"page","region":"orders",
		"input":{"type":"object","properties":{"status":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"meta":{"type":"object"}},"additionalProperties":false}}`).
		with(t, "/capabilities/6", `{"name":"customers.call","description":"Call a customer back","scope":"page","region":"orders",
		"input":{"type":"object","properties":{"phone":{"type":"string","x-pinhole-token":{"field":"phone","record":"token"}}},"required":["phone"]}}`)
	// ma adds a placeholder field holding the customer's address, whose
	// keys in sta include a key shaped like data and prototype keys, and
	// two slots on it: one typed object, one typed string.
	ma := m.with(t, "/collections/0/fields/addr", `{"from":"/customer/address","expose":"placeholder"}`).
		with(t, "/capabilities/5", `{"name":"order.shipTo","description":"Ship to the customer's address","scope":"record","region":"orders",
		"input":{"type":"object","properties":{"addr":{"type":"object","x-pinhole-token":{"field":"addr"}}},"required":["addr"],"additionalProperties":false}}`).
		with(t, "/capabilities/6", `{"name":"order.label","description":"Print an address label","scope":"record","region":"orders",
		"input":{"type":"object","properties":{"addr":{"type":"string","x-pinhole-token":{"field":"addr"}}}}}`)
	sta := st.with(t, "/orders/items/0/customer/address/ssn-123-45-6789", `"x"`).
		with(t, "/orders/items/0/customer/address/constructor", `{"prototype":{"polluted":true}}`)
	addrA := `{"street":"10 Harbour Road","city":"Osaka","zip":"10000","country":"GB","ssn-123-45-6789":"x","constructor":{"prototype":{"polluted":true}}}`
	charge := func(record, cardOf string) []byte {
		return prepareReq(`"capability":"order.charge","record":"` + record + `","input":{"card":{"$placeholder":"` + ph(t, cardOf) + `"},"amount":12.5}`)
	}
	// smc and smd add a capability, a composite field and a state key to sm.
	smc := sm.with(t, "/capabilities", `[{"name":"item.open","description":"Open","scope":"record","region":"list"}]`)
	smd := smc.with(t, "/collections/0/fields/meta", `{"from":"/meta"}`).with(t, "/state", `{"filter":"/filter"}`)
	// deep is an object nested levels deep whose keys look like a credential.
	deep := func(levels int) string {
		return strings.Repeat(`{"k":`, levels-1) + `{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB":1}` + strings.Repeat(`}`, levels-1)
	}
	vs := []vector{
		// Windows and selection.
		{"describe-default", seq(m, st, d(""))},
		{"describe-offset-limit", seq(m, st, d(`"offset":8,"limit":8`))},
		{"describe-last-window", seq(m, st, d(`"offset":40,"limit":8`))},
		{"describe-partial-last-window", seq(m, st, d(`"offset":44,"limit":8`))},
		{"describe-offset-past-end", seq(m, st, d(`"offset":100`))},
		{"describe-limit-only", seq(m, st, d(`"limit":3`))},
		{"describe-record-selection", seq(m, st, d(`"record":["SO-1003","SO-1002"]`))},
		{"describe-record-twenty", seq(m, st, d(`"record":["SO-1001","SO-1002","SO-1003","SO-1004","SO-1005","SO-1006","SO-1007","SO-1008","SO-1009","SO-1010","SO-1011","SO-1012","SO-1013","SO-1014","SO-1015","SO-1016","SO-1017","SO-1018","SO-1019","SO-1020"]`))},
		{"describe-integer-ids", seq(sm, doc{parse(t, `{"items":[{"id":1002,"name":"a"},{"id":"1003","name":"b"}]}`)},
			d(""), d(`"record":[1002]`), d(`"record":["1002"]`))},
		{"describe-whole-view-no-window", seq(sm, doc{parse(t, `{"items":[{"id":"a","name":"A"},{"id":"b","name":"B"}]}`)}, d(""))},
		{"describe-empty-collections", seq(m, st.with(t, "/orders/items", `[]`).with(t, "/ui/toasts", `[]`), d(""))},
		// Request errors.
		{"error-record-with-window", seq(m, st, d(`"record":["SO-1002"],"limit":3`), d(`"offset":0,"record":["SO-1002"]`))},
		{"error-record-count", seq(m, st, d(`"record":[]`), d(`"record":["SO-1001","SO-1002","SO-1003","SO-1004","SO-1005","SO-1006","SO-1007","SO-1008","SO-1009","SO-1010","SO-1011","SO-1012","SO-1013","SO-1014","SO-1015","SO-1016","SO-1017","SO-1018","SO-1019","SO-1020","SO-1021"]`))},
		{"error-limit", seq(m, st, d(`"limit":0`), d(`"limit":51`), d(`"limit":2.5`), d(`"limit":"8"`))},
		{"error-offset", seq(m, st, d(`"offset":-1`), d(`"offset":1.5`), d(`"offset":"8"`))},
		{"error-unknown-and-inactive-record", seq(
			m.with(t, "/collections/1", `{"region":"order-detail","from":"/ui/detail","id":"/number","fields":{"status":{"from":"/status"}}}`),
			st.with(t, "/ui/detail", `[{"number":"SO-9001","status":"Open"}]`),
			d(`"record":["SO-0000"]`), d(`"record":["SO-9001"]`), d(`"record":["SO-1001","SO-0000"]`))},
		{"error-malformed-requests", append(seq(m, st), lines(`{"op":"describe"`, `[]`, `{"op":"describe","unknown":1}`, `{"op":"fly"}`, `{"op":"describe","op":"describe"}`, `{"op":"describe","offset":1e400}`)...)},
		{"error-not-loaded", lines(`{"op":"describe"}`, `{"op":"observe","state":{}}`, string(loadReq(m)), `{"op":"describe"}`)},
		// Manifest errors: each names the JSON Pointer of the fault.
		{"manifest-unknown-key", badManifest("/regions/0/colour", `"blue"`)},
		{"manifest-malformed-pointer", badManifest("/collections/0/fields/status/from", `"status"`)},
		{"manifest-bad-pointer-escape", badManifest("/state/filter", `"/orders/~2filter"`)},
		{"manifest-duplicate-region", badManifest("/regions/1/id", `"orders"`)},
		{"manifest-duplicate-capability", badManifest("/capabilities/1/name", `"order.ship"`)},
		{"manifest-missing-parent", badManifest("/regions/1/parent", `"nowhere"`)},
		{"manifest-parent-cycle", [][]byte{loadReq(m.with(t, "/regions/0/parent", `"order-detail"`))}},
		{"manifest-capability-unknown-region", badManifest("/capabilities/0/region", `"warehouse"`)},
		{"manifest-limit-above-max", badManifest("/limits/maxLimit", `5000`)},
		{"manifest-unknown-operator", badManifest("/capabilities/0/unavailable/0/when", `{"field":"/status","like":"Ready*"}`)},
		{"manifest-field-condition-in-page-scope", badManifest("/capabilities/3/unavailable/0/when", `{"field":"/status","eq":"x"}`)},
		{"manifest-missing-format", badManifest("/pinhole", "")},
		{"manifest-bad-expose", badManifest("/collections/0/fields/email/expose", `"hash"`)},
		// A redescribeOn or sessionScope path is compared raw: it may not
		// hold records, feedback, a protected value, or a page or state
		// value and more.
		{"manifest-redescribe-on-records", badManifest("/redescribeOn/1", `"/orders"`)},
		{"manifest-redescribe-on-page-and-more", badManifest("/redescribeOn/0", `"/router"`)},
		// "$schema" and "$comment" annotate a manifest and change nothing.
		{"manifest-annotations", seq(m.with(t, "/$schema", `"./node_modules/@pinholectx/pinhole/manifest.schema.json"`).
			with(t, "/$comment", `"Orders console"`).with(t, "/state/$comment", `"list controls"`).
			with(t, "/collections/0/fields/$comment", `"one order"`).with(t, "/collections/0/fields/email/$comment", `"masked"`),
			st, d(`"limit":1`))},
		{"manifest-annotation-not-a-string", badManifest("/regions/0/$comment", `7`)},
		// A failed load or observe leaves what was in force.
		{"load-failure-keeps-previous", seq(m, st, loadReq(m.with(t, "/regions/0/colour", `"x"`)), d(`"limit":2`))},
		{"observe-failure-keeps-previous", seq(m, st, []byte(`{"op":"observe","state":[1,2]}`),
			[]byte(`{"op":"observe","state":{"a":1,"a":2}}`), []byte(`{"op":"observe"}`), d(`"limit":2`))},
		// Snapshots.
		{"snapshot-unchanged", seq(m, st, observeReq(st), observeReq(st.with(t, "/orders/items/3/internalNote", `"changed, but not declared"`)),
			observeReq(st.with(t, "/orders/items/3/status", `"Shipped"`)), d(`"record":["SO-1004"]`))},
		// Incremental observe: JSON Patch against the declared state.
		{"patch-replace-one-record", seq(m, st, patchReq(`[{"op":"replace","path":"/orders/items/1/status","value":"Ready to ship"}]`), d(`"record":["SO-1002"]`))},
		{"patch-add-and-remove-records", seq(m, st,
			patchReq(`[{"op":"add","path":"/orders/items/-","value":{"number":"SO-2000","status":"Ready to ship","customer":{"name":"New Buyer","email":"new.buyer@example.com","phone":"+44 20 7946 9999","address":{"street":"1 Secret Lane"}},"internalNote":"never declared","totals":{"grand":10}}},{"op":"remove","path":"/orders/items/0"}]`),
			d(`"offset":40`), d(`"record":["SO-1001"]`))},
		{"patch-undeclared-keeps-snapshot", seq(m, st, patchReq(`[{"op":"replace","path":"/session/token","value":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"},{"op":"add","path":"/orders/items/2/internalNote","value":"x"}]`), d(`"limit":1`))},
		{"patch-rejected-keeps-previous", seq(m, st,
			patchReq(`[{"op":"replace","path":"/orders/items/1/status","value":"Shipped"},{"op":"replace","path":"/orders/items/999/status","value":"Shipped"}]`),
			patchReq(`[{"op":"add","path":"/orders/items/1/status/deeper","value":1}]`),
			patchReq(`[{"op":"test","path":"/orders/filter","value":"open"},{"op":"replace","path":"/orders/filter","value":"open"}]`),
			patchReq(`[{"op":"replace","path":"orders/filter","value":"open"}]`),
			patchReq(`{"op":"replace"}`),
			d(`"record":["SO-1002"]`))},
		{"patch-before-state", append([][]byte{loadReq(m)}, patchReq(`[]`))},
		// A copy copies; the copies of one patch may copy no more than the
		// state and the patch hold, so a chain of copies of copies is
		// refused at the copy that passes that, and nothing changes.
		{"patch-copy-bounded", seq(m, st,
			patchReq(`[{"op":"replace","path":"/orders/items/0/items","value":[1]}`+strings.Repeat(`,{"op":"copy","from":"/orders/items/0/items","path":"/orders/items/0/items/-"}`, 30)+`]`),
			d(`"record":["SO-1001"]`),
			patchReq(`[{"op":"copy","from":"/orders/items/1/totals","path":"/orders/items/0/items"},{"op":"copy","from":"/orders/items/1","path":"/orders/items/-"},`+
				`{"op":"replace","path":"/orders/items/48/number","value":"SO-2002"},{"op":"replace","path":"/orders/items/1/totals/grand","value":1}]`),
			d(`"record":["SO-1001","SO-1002","SO-2002"]`))},
		// prepare: checks and execute-time resolution.
		{"prepare-resolves-token-slot", seq(m, st, d(`"record":["SO-1001"]`),
			charge("SO-1001", `"4111 1111 1111 1000"`),
			[]byte(`{"op":"audit"}`))},
		// Tokens resolve only in declared slots, for the record they came from.
		{"prepare-token-laundering", seq(ml, st, d(`"record":["SO-1001","SO-1002"]`),
			// another order's card in an action on SO-1001
			charge("SO-1001", `"4111 1111 1111 1053"`),
			// a phone alias as the free text of a page-scope capability
			prepareReq(`"capability":"orders.filter","input":{"status":"`+al(t, `"+44 20 7946 1000"`)+`"}`),
			prepareReq(`"capability":"orders.filter","input":{"status":"call `+al(t, `"+44 20 7946 1000"`)+` now"}`),
			// nested in an array and in an object
			prepareReq(`"capability":"orders.filter","input":{"tags":["x","`+al(t, `"+44 20 7946 1000"`)+`"]}`),
			prepareReq(`"capability":"orders.filter","input":{"meta":{"a":{"b":"`+al(t, `"+44 20 7946 1001"`)+`"}}}`),
			// a placeholder object outside a slot, and a token as a member name
			prepareReq(`"capability":"orders.filter","input":{"status":{"$placeholder":"`+ph(t, `"4111 1111 1111 1000"`)+`"}}`),
			prepareReq(`"capability":"orders.filter","input":{"meta":{"`+al(t, `"+44 20 7946 1000"`)+`":1}}`),
			// a slot takes only a token of its kind
			prepareReq(`"capability":"order.charge","record":"SO-1001","input":{"card":"4111 1111 1111 1000","amount":1}`),
			prepareReq(`"capability":"order.charge","record":"SO-1001","input":{"card":"`+al(t, `"4111 1111 1111 1000"`)+`","amount":1}`),
			prepareReq(`"capability":"order.charge","record":"SO-1001","input":{"card":{"$placeholder":"`+ph(t, `"4111 1111 1111 1000"`)+`","x":1},"amount":1}`),
			// the phone slot of a page-scope capability: the token chooses the record
			prepareReq(`"capability":"customers.call","input":{"phone":"`+al(t, `"+44 20 7946 1037"`)+`"}`),
			prepareReq(`"capability":"customers.call","input":{"phone":"`+al(t, `"+44 20 7946 9999"`)+`"}`),
			prepareReq(`"capability":"customers.call","input":{"phone":"+44 20 7946 1002"}`),
			// after a scope change the old tokens stop resolving
			patchReq(`[{"op":"replace","path":"/session/tenant","value":"other-shop"}]`),
			charge("SO-1001", `"4111 1111 1111 1000"`))},
		// A slot's schema never judges the value behind its token: a schema
		// that would walk it is refused at load; a type-only slot hands the
		// handler the value, whatever keys it holds, and a value of another
		// type fails with a message naming only the slot.
		{"prepare-slot-schema-hides-value", append([][]byte{loadReq(ma.with(t, "/capabilities/5/input/properties/addr",
			`{"type":"object","properties":{"city":{}},"additionalProperties":false,"x-pinhole-token":{"field":"addr"}}`))},
			seq(ma, sta, d(`"record":["SO-1001"]`),
				prepareReq(`"capability":"order.shipTo","record":"SO-1001","input":{"addr":{"$placeholder":"`+ph(t, addrA)+`"}}`),
				prepareReq(`"capability":"order.label","record":"SO-1001","input":{"addr":{"$placeholder":"`+ph(t, addrA)+`"}}`),
				prepareReq(`"capability":"order.shipTo","record":"SO-1001","input":{"addr":{"$placeholder":"`+ph(t, addrA)+`"},"x":1}`))...)},
		{"manifest-token-slot-plain-field", badManifest("/capabilities/4/input/properties/card/x-pinhole-token", `{"field":"customer"}`)},
		{"manifest-token-slot-unknown-field", badManifest("/capabilities/4/input/properties/card/x-pinhole-token", `{"field":"cvv"}`)},
		{"manifest-token-slot-page-needs-record", [][]byte{loadReq(ml.with(t, "/capabilities/6/input/properties/phone/x-pinhole-token", `{"field":"phone"}`))}},
		{"manifest-token-slot-record-by-token", badManifest("/capabilities/4/input/properties/card/x-pinhole-token", `{"field":"card","record":"token"}`)},
		{"manifest-token-slot-in-items", badManifest("/capabilities/4/input/properties/card", `{"type":"array","items":{"x-pinhole-token":{"field":"card"}}}`)},
		{"prepare-errors", seq(m, st, d(`"record":["SO-1001","SO-1002"]`),
			prepareReq(`"capability":"order.fly","record":"SO-1001"`),
			prepareReq(`"capability":"order.refund","input":{"amount":1}`),
			prepareReq(`"capability":"order.ship","record":"SO-1002","input":{"carrier":"ups"}`),
			prepareReq(`"capability":"order.ship","record":"SO-9999","input":{"carrier":"ups"}`),
			prepareReq(`"capability":"order.ship","input":{"carrier":"ups"}`),
			prepareReq(`"capability":"orders.export","record":"SO-1001"`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":"fedex"}`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{}`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":"ups","note":"extra"}`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":7}`),
			prepareReq(`"capability":"order.charge","record":"SO-1001","input":{"card":{"$placeholder":"ph_notatokenthemoduleeverha"},"amount":1}`),
			prepareReq(`"capability":"order.charge","record":"SO-1001","input":{"amount":0}`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":"ups"},"colour":"red"`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":"ups"},"snapshot":"s99"`))},
		{"prepare-inactive-like-unknown", seq(m, st, prepareReq(`"capability":"order.refund","input":{"amount":1}`),
			prepareReq(`"capability":"order.refundx","input":{"amount":1}`), prepareReq(`"capability":"order.refund","snapshot":"s1"`),
			patchReq(`[{"op":"replace","path":"/ui/detailOpen","value":true}]`), prepareReq(`"capability":"order.refund","snapshot":"s1"`),
			prepareReq(`"capability":"order.refund","snapshot":"s2"`))},
		{"prepare-stale-snapshot", seq(m, st, d(`"limit":2`),
			patchReq(`[{"op":"replace","path":"/orders/items/1/status","value":"Shipped"}]`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","snapshot":"s1","input":{"carrier":"dhl"}`),
			patchReq(`[{"op":"replace","path":"/orders/items/0/customer/name","value":"Lena Zhou-Berg"}]`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","snapshot":"s1","input":{"carrier":"dhl"}`),
			prepareReq(`"capability":"order.ship","record":"SO-1001","snapshot":"s3","input":{"carrier":"dhl"}`),
			patchReq(`[{"op":"replace","path":"/session/role","value":"manager"}]`),
			prepareReq(`"capability":"orders.export","snapshot":"s3"`))},
		// after: observations since a snapshot.
		{"after-ship-one-order", seq(m, st, d(`"limit":2`),
			patchReq(`[{"op":"replace","path":"/orders/items/0/status","value":"Shipped"},{"op":"add","path":"/ui/toasts/-","value":{"message":"Order SO-1001 shipped","kind":"success","origin":"app"}}]`),
			afterReq("s1"), afterReq("s2"))},
		{"after-modal-opens", seq(m, st, patchReq(`[{"op":"replace","path":"/ui/detailOpen","value":true},{"op":"replace","path":"/ui/selected","value":"SO-1002"}]`), afterReq("s1"))},
		{"after-navigation", seq(m, st, patchReq(`[{"op":"replace","path":"/router/path","value":"/orders/archive"},{"op":"replace","path":"/router/title","value":"Archive"}]`), afterReq("s1"))},
		{"after-filter-changes-records", seq(m, st, patchReq(`[{"op":"replace","path":"/orders/filter","value":"ready"},{"op":"remove","path":"/orders/items/1"},{"op":"remove","path":"/orders/items/1"}]`), afterReq("s1"))},
		{"after-reorder", seq(m, st, patchReq(`[{"op":"move","from":"/orders/items/0","path":"/orders/items/5"}]`),
			patchReq(`[{"op":"remove","path":"/orders/items/0"},{"op":"add","path":"/orders/items/3","value":{"number":"SO-1001","status":"Ready to ship"}}]`), afterReq("s1"))},
		{"after-scope-changes", seq(m, st, patchReq(`[{"op":"replace","path":"/session/tenant","value":"other-shop"}]`), afterReq("s1"))},
		// A session scope absent from the state (the bridge leaves out one it
		// cannot read) or cut cannot tell tenants apart: no context, no
		// action and no after until it is back; a change only the context
		// hides keeps the snapshot id meanwhile (a cut scope once gave every
		// observe a scope of its own, and so a new id). null is a scope.
		{"scope-withheld", seq(m, st,
			patchReq(`[{"op":"remove","path":"/session/tenant"}]`), d(""),
			prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":"ups"},"snapshot":"s2"`), afterReq("s1"),
			patchReq(`[{"op":"replace","path":"/orders/items/0/customer/email","value":"lena.other@example.com"}]`),
			patchReq(`[{"op":"add","path":"/session/tenant","value":{"$cut":"cycle"}}]`),
			patchReq(`[{"op":"replace","path":"/orders/items/0/customer/email","value":"l@example.com"}]`), d(""),
			patchReq(`[{"op":"replace","path":"/session/tenant","value":null}]`), d(`"limit":1`),
			// A snapshot of the withheld time was never shown: not held.
			afterReq("s2"), prepareReq(`"capability":"order.ship","record":"SO-1001","input":{"carrier":"ups"},"snapshot":"s2"`),
			patchReq(`[{"op":"replace","path":"/session/tenant","value":"acme-shop"}]`), d(`"limit":1`))},
		// A new load without a session scope ends the withholding.
		{"scope-withheld-then-load", seq(m, st, patchReq(`[{"op":"remove","path":"/session/tenant"}]`), d(`"limit":1`),
			loadReq(sm), observeReq(doc{parse(t, `{"items":[{"id":"a","name":"A"}]}`)}), d(""))},
		{"after-availability-broad", seq(m, st, patchReq(`[{"op":"replace","path":"/session/role","value":"manager"},{"op":"replace","path":"/orders/items/0/status","value":"Shipped"},{"op":"replace","path":"/orders/items/1/status","value":"Ready to ship"},{"op":"replace","path":"/orders/items/2/status","value":"Ready to ship"},{"op":"replace","path":"/orders/items/3/status","value":"Ready to ship"},{"op":"replace","path":"/orders/items/5/status","value":"Ready to ship"}]`), afterReq("s1"))},
		{"after-insufficient", seq(m.with(t, "/limits/maxResponseBytes", `4096`), st, observeReq(st.with(t, "/orders/items", allStatus(t, st, "Shipped"))), afterReq("s1"))},
		{"after-stale", seq(m, st, afterReq("s0"), afterReq("s9"), []byte(`{"op":"after"}`), []byte(`{"op":"after","since":"s1","x":1}`))},
		// Page identity.
		{"page-omitted", seq(m.without(t, "/page"), st, d(`"limit":1`))},
		{"page-omitted-without-identity", seq(m, st.without(t, "/router"), d(`"limit":1`))},
		{"page-params-allow-list", seq(m, st.with(t, "/router/query/status", `"closed"`), d(`"limit":1`))},
		// Regions: a modal region becomes active.
		{"regions-modal-active", seq(m, st.with(t, "/ui/detailOpen", `true`).with(t, "/ui/selected", `"SO-1002"`), d(`"limit":2`))},
		// Exposure.
		{"exposure-modes", seq(m, st, d(`"record":["SO-1001","SO-1007"]`))},
		{"exposure-mask-shapes", seq(
			doc{parse(t, `{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/c","id":"/id","fields":{"m":{"from":"/v","expose":"mask"}}}]}`)},
			doc{parse(t, `{"c":[{"id":"email","v":"lin.zhou@example.com"},{"id":"card","v":"4242 4242 4242 4242"},{"id":"phone","v":"+44 20 7946 0123"},{"id":"number","v":4111111111111111},{"id":"short","v":"1234"},{"id":"word","v":"secret plan"},{"id":"bool","v":true},{"id":"null","v":null},{"id":"missing"}]}`)},
			d(""))},
		{"exposure-alias-stable", seq(
			doc{parse(t, `{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/c","id":"/id","fields":{"a":{"from":"/v","expose":"alias"},"p":{"from":"/v","expose":"placeholder"}}}]}`)},
			doc{parse(t, `{"c":[{"id":"x","v":"+44 20 7946 0123"},{"id":"y","v":"+44 20 7946 0123"},{"id":"z","v":"+44 20 7946 0124"}]}`)},
			d(""))},
		{"credential-net", seq(m.with(t, "/state/token", `"/session/token"`),
			st.with(t, "/router/title", `"Orders eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc"`).
				with(t, "/router/query/status", `"Bearer abcdef0123456789xyz"`).
				with(t, "/orders/items/0/customer/name", `"AKIAIOSFODNN7EXAMPLE"`).
				with(t, "/orders/items/0/note", `"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"`).
				with(t, "/orders/items/1/number", `"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"`).
				with(t, "/ui/toasts/0/message", `"Set-Cookie: session=9f8e7d6c5b4a; HttpOnly"`),
			d(`"limit":2`))},
		// Secrets disguised as the security review found them (after "=", in
		// a route segment, fullwidth, split by fillers, a wrapped JWT, an env
		// line) and business text shaped like secrets that must pass.
		{"credential-net-disguised", seq(m.with(t, "/state/token", `"/session/token"`),
			st.with(t, "/router/path", `"/invite/ghp_Zt3nQ8wLk1Vx5bR9mC2yH7dJ4pF6sA0gE1Ku/accept"`).
				with(t, "/router/title", `"Promo token=SPRING24"`).
				with(t, "/router/query/status", `"\uff47\uff48\uff50\uff3f\uff2b\uff14\uff4d\uff34\uff19\uff51\uff2c\uff12\uff58\uff37\uff17\uff56\uff22\uff4e\uff13\uff39\uff43\uff32\uff18\uff53\uff28\uff44\uff11\uff2a\uff50\uff25\uff16\uff55\uff27\uff41\uff10\uff31\uff4f\uff15\uff3a\uff38"`).
				with(t, "/orders/items/0/customer/name", `"sk_live_51Hx8kQ2eZvKY\u3164lo2C0aBcD\u115feFgHiJ4kLmNoPq"`).
				with(t, "/orders/items/0/note", `"eyJhbGciOiJIUzI1NiJ9\n.eyJzdWIiOiJ1c2VyLTQ3MTEifQ\n.c2LufYNuydk9sgEWl2agE4aE"`).
				with(t, "/orders/items/1/note", `"STRIPE_KEY=rk_live_51Qm7TzVbN2cXw8LpR4sK9dHf"`).
				with(t, "/orders/items/2/note", `"sk-winter-collection-2026-launch-campaign"`).
				with(t, "/orders/items/1/number", `"key=ghp_R8fKq2LmZ0xW7vTn4YcB9sHd1JpE6uGa3Qo5"`).
				with(t, "/orders/filter", `"Secret: surprise-party-2026"`).
				with(t, "/ui/toasts/0/message", `"https://api.example.com/v1/orders?access_token=Zm9vYmFyYmF6cXV4MTIz_NDU2Nzg5MGFi"`),
			d(`"limit":3`))},
		{"invisible-default-ignorables", seq(m, st.with(t, "/orders/items/0/note", `"Ship\u034fto\ufe0f evil\u3164 now\u115f\u1160\uffa0\u17b4\u17b5\u180b\u180f\udb40\udd00 ok"`).
			with(t, "/orders/items/1/number", `"SO-\u31641002"`).
			with(t, "/router/title", `"Orders\u034f\ufe0e"`), d(`"limit":2`))},
		{"truncation", seq(m.with(t, "/limits/maxFieldChars", `32`), st.with(t, "/orders/items/0/customer/name", `"`+longName+`"`).
			with(t, "/orders/filter", `"`+longName+`"`).with(t, "/ui/toasts/0/message", `"`+longName+`"`).
			with(t, "/router/title", `"`+longName+`"`).with(t, "/router/query/status", `"`+longName+`"`).
			with(t, "/orders/sort", `{"by":"created","direction":"descending","then":["customer","total"]}`), d(`"limit":2`))},
		{"invisible-characters-stripped", seq(m, st.with(t, "/orders/items/0/note", `"Ship\u202eto evil\u200b now\ufeff\u0007"`).
			with(t, "/orders/items/1/number", `"SO-\u200b1002"`), d(`"limit":2`))},
		{"numbers-kept-literal", seq(m, st.with(t, "/orders/items/0/totals/grand", `1e400`).with(t, "/orders/items/1/totals/grand", `-0.000`), d(`"limit":2`))},
		// Bounds.
		// Feedback the bridge cut whole (an array too long to read): empty, and observe says why.
		{"feedback-cut", seq(m, st.with(t, "/ui/toasts", `{"$cut":"size"}`), d(`"limit":1`))},
		{"bounds-feedback", seq(m.with(t, "/limits/maxFeedback", `2`), st.with(t, "/ui/toasts", `[{"message":"one","kind":"info"},{"message":"two","kind":"warning","origin":"server"},{"message":"three","kind":"loud","origin":"hacker"},{"message":4},{"kind":"error"},{"message":"six","kind":"success","origin":"user"}]`), d(`"limit":1`))},
		{"bounds-unavailable", seq(m.with(t, "/limits/maxUnavailable", `2`), st, d(""))},
		{"bounds-record-ids", seq(m.with(t, "/limits/maxRecordIds", `10`), st, d(`"limit":2`))},
		{"bounds-response-bytes-records", seq(m.with(t, "/limits/maxResponseBytes", `4500`).with(t, "/limits/maxFieldChars", `1000`),
			st.with(t, "/orders/items/0/note", `"`+strings.Repeat("long note ", 60)+`"`).with(t, "/orders/items/1/note", `"`+strings.Repeat("long note ", 60)+`"`).
				with(t, "/orders/items/2/note", `"`+strings.Repeat("long note ", 60)+`"`), d(""), d(`"record":["SO-1003","SO-1002","SO-1001","SO-1004"]`))},
		{"bounds-pager-advances", seq(m.with(t, "/limits/maxResponseBytes", `4096`).with(t, "/limits/maxFieldChars", `8192`),
			st.with(t, "/orders/items/0/note", `"`+strings.Repeat(`\u0001`, 1000)+`"`).
				with(t, "/orders/items/1/note", `"`+strings.Repeat(`\u0001`, 600)+`"`).with(t, "/orders/items/1/customer/name", `"`+strings.Repeat(`\u0002`, 80)+`"`),
			d(`"limit":1`), d(`"offset":1,"limit":1`), d(`"offset":2,"limit":1`), d(`"record":["SO-1001"]`))},
		{"bounds-response-bytes-ids", seq(m.with(t, "/limits/maxResponseBytes", `4096`).with(t, "/limits/maxRecordIds", `10000`),
			st.with(t, "/orders/items", idsOnly(300)), d(`"limit":1`))},
		// Records without a valid id count but are not referenceable.
		{"records-invalid-ids", seq(sm, doc{parse(t, `{"items":[{"id":"a","name":"A"},{"name":"no id"},{"id":"a","name":"dup"},{"id":1.5},{"id":""},{"id":true},{"id":"`+strings.Repeat("x", 129)+`"},{"id":"b\u0001"},{"id":"b","name":"B"}]}`)}, d(""))},
		{"records-not-an-array", seq(sm, doc{parse(t, `{"items":{"id":"a"}}`)}, d(""))},
		// A collection absent from the state (a store of another shape) or
		// null (one not filled yet) is empty, with a warning, until it comes.
		{"records-absent", seq(sm, doc{parse(t, `{"item":[{"id":"a","name":"A"}]}`)}, d(""),
			observeReq(doc{parse(t, `{"items":null}`)}), observeReq(doc{parse(t, `{"items":[{"id":"a","name":"A"}]}`)}), d(""))},
		// A collection the bridge cut whole (an array too long to read: a sparse array's length).
		{"records-cut-collection", seq(sm, doc{parse(t, `{"items":{"$cut":"size"}}`)}, d(""))},
		// Records sharing an id: none of them is referenceable, whichever comes first.
		{"records-duplicate-ids", seq(smc, doc{parse(t, `{"items":[{"id":"a","name":"first"},{"id":"b","name":"B"},{"id":"a","name":"impostor"},{"id":"c","name":"C"}]}`)},
			d(""), d(`"record":["a"]`), prepareReq(`"capability":"item.open","record":"a"`),
			patchReq(`[{"op":"remove","path":"/items/2"}]`), d(`"record":["a"]`))},
		// A value nested too deep costs that value: the record stays, its field is cut.
		{"records-cut-too-deep", seq(smd, doc{parse(t, `{"filter":`+deep(65)+`,"items":[{"id":"a","name":"A","meta":`+deep(65)+`},{"id":"b","name":"B","meta":`+deep(64)+`}]}`)},
			d(""), prepareReq(`"capability":"item.open","record":"a"`),
			patchReq(`[{"op":"replace","path":"/items/1/meta`+strings.Repeat("/k", 63)+`","value":{"k":{"k":1}}}]`), d(`"record":["b"]`), afterReq("s1"),
			observeReq(doc{parse(t, `{"filter":{"$cut":"depth"},"items":[{"id":"a","name":"A","meta":{"$cut":"cycle"}}]}`)}), d(""))},
		// Availability rules and the condition language.
		{"unavailable-manager", seq(m, st.with(t, "/session/role", `"manager"`).with(t, "/ui/detailOpen", `true`), d(`"limit":3`))},
		{"conditions", seq(doc{parse(t, `{"pinhole":1,"regions":[{"id":"r"}],
			"collections":[{"region":"r","from":"/c","id":"/id","fields":{"n":{"from":"/n"}}}],
			"capabilities":[
			 {"name":"a.all","description":"all of","scope":"record","region":"r","unavailable":[{"when":{"all":[{"field":"/n","gte":2},{"field":"/n","lt":4}]},"reason":"n in [2,4)"}]},
			 {"name":"a.any","description":"any of","scope":"record","region":"r","unavailable":[{"when":{"any":[{"field":"/t","in":["x","y"]},{"field":"/n","gt":4}]},"reason":"t in x,y or n>4"}]},
			 {"name":"a.not","description":"not","scope":"record","region":"r","unavailable":[{"when":{"not":{"field":"/t","exists":true}},"reason":"no t"}]},
			 {"name":"a.notIn","description":"not in","scope":"record","region":"r","unavailable":[{"when":{"field":"/t","notIn":["x"]},"reason":"t is not x"}]},
			 {"name":"a.lte","description":"string order","scope":"record","region":"r","unavailable":[{"when":{"field":"/t","lte":"m"},"reason":"t sorts before m"}]},
			 {"name":"p.path","description":"page rule","scope":"page","region":"r","unavailable":[{"when":{"path":"/flag","eq":true},"reason":"flag set"},{"when":{"path":"/flag","exists":false},"reason":"flag missing"}]}]}`)},
			doc{parse(t, `{"flag":true,"c":[{"id":"1","n":1,"t":"x"},{"id":"2","n":2},{"id":"3","n":3.5,"t":"y"},{"id":"4","n":5,"t":"z"},{"id":"5","n":"3","t":"a"}]}`)},
			d(""))},
		// Conformance: RFC 6901 array index tokens are "0" or digits without
		// a leading zero; "-" only as the last token of an add.
		{"conformance-index-tokens", seq(m.with(t, "/state/second", `"/orders/sort/+1"`).with(t, "/state/first", `"/orders/sort/0"`),
			st.with(t, "/orders/sort", `["-created","total"]`),
			d(`"limit":1`),
			patchReq(`[{"op":"add","path":"/orders/sort/+0","value":"x"}]`),
			patchReq(`[{"op":"remove","path":"/orders/sort/-0"}]`),
			patchReq(`[{"op":"replace","path":"/orders/sort/+01","value":"x"}]`),
			patchReq(`[{"op":"test","path":"/orders/sort/01","value":"total"}]`),
			patchReq(`[{"op":"replace","path":"/orders/sort/-","value":"x"}]`),
			patchReq(`[{"op":"remove","path":"/orders/items/-0"}]`),
			patchReq(`[{"op":"test","path":"/orders/sort/1","value":"total"},{"op":"add","path":"/orders/sort/-","value":"number"}]`),
			d(`"limit":1`))},
		// Conformance: the input schema counts 2.0 as an integer, and
		// required takes any name properties takes.
		{"conformance-schema-integers", seq(m.with(t, "/capabilities/4", `{"name":"order.tag","description":"Tag the order","scope":"record","region":"orders",
			"input":{"type":"object","properties":{"tag":{"type":"string","minLength":1.0,"maxLength":3.0},"list":{"type":"array","minItems":1e0,"maxItems":2.0},"a\u0001b":{"type":"boolean"}},
			"required":["tag","a\u0001b"],"additionalProperties":false}}`), st,
			d(`"record":["SO-1001"]`),
			prepareReq(`"capability":"order.tag","record":"SO-1001","input":{"tag":"abc","list":[1,2],"a\u0001b":true}`),
			prepareReq(`"capability":"order.tag","record":"SO-1001","input":{"tag":"abcd","a\u0001b":true}`),
			prepareReq(`"capability":"order.tag","record":"SO-1001","input":{"tag":"","a\u0001b":true}`),
			prepareReq(`"capability":"order.tag","record":"SO-1001","input":{"tag":"a","list":[],"a\u0001b":true}`),
			prepareReq(`"capability":"order.tag","record":"SO-1001","input":{"tag":"a","list":[1,2,3],"a\u0001b":true}`),
			prepareReq(`"capability":"order.tag","record":"SO-1001","input":{"tag":"a"}`),
			loadReq(m.with(t, "/capabilities/0/input/properties/carrier/maxLength", `2.5`)))},
		// Operations around the projection.
		{"version-and-audit", append(seq(m, st, d(`"limit":1`), d(`"limit":0`)), lines(`{"op":"audit"}`, `{"op":"audit"}`, `{"op":"version"}`)...)},
	}
	return vs
}

// idsOnly returns n orders with nothing but long ids, to overflow recordIds.
func idsOnly(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"number":"SO-%06d-%s","status":"Shipped"}`, i, strings.Repeat("x", 24))
	}
	b.WriteByte(']')
	return b.String()
}
