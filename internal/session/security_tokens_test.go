package session_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

// Token slots (SECURITY.md, "Tokens resolve only where the manifest says"):
// an alias or placeholder resolves only in a property the capability's
// input declares with x-pinhole-token, and only for the record it came
// from. These tests hold each laundering path of the security issue shut,
// and a property test checks it over random manifests and inputs.

// tokenCall runs one request and decodes the answer.
func tokenCall(t *testing.T, s *session.Session, req string) (map[string]any, []byte) {
	t.Helper()
	out := s.Call([]byte(req))
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: invalid JSON answer %q", req, out)
	}
	return r, out
}

// ordersTokens loads the orders example with extra capabilities, observes
// it and describes SO-1001 and SO-1002; it returns the session, the state
// and each record's fields as the agent saw them.
func ordersTokens(t *testing.T, extra ...string) (*session.Session, map[string]any, map[string]map[string]any) {
	t.Helper()
	var m map[string]any
	mustUnmarshal(t, "../../testdata/orders/manifest.json", &m)
	for _, e := range extra {
		var c any
		if err := json.Unmarshal([]byte(e), &c); err != nil {
			t.Fatal(err)
		}
		m["capabilities"] = append(m["capabilities"].([]any), c)
	}
	var st map[string]any
	mustUnmarshal(t, "../../testdata/orders/state.json", &st)
	s := session.New()
	mb, _ := json.Marshal(m)
	sb, _ := json.Marshal(st)
	if r, out := tokenCall(t, s, `{"op":"load","key":"token-slot-key-0001","manifest":`+string(mb)+`}`); r["loaded"] != true {
		t.Fatalf("load: %s", out)
	}
	tokenCall(t, s, `{"op":"observe","state":`+string(sb)+`}`)
	d, out := tokenCall(t, s, `{"op":"describe","record":["SO-1001","SO-1002"]}`)
	if d["error"] != nil {
		t.Fatalf("describe: %s", out)
	}
	seen := map[string]map[string]any{}
	for _, r := range d["context"].(map[string]any)["records"].([]any) {
		rec := r.(map[string]any)
		seen[rec["id"].(string)] = rec["fields"].(map[string]any)
	}
	return s, st, seen
}

func mustUnmarshal(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// protectedValues returns every phone, card and e-mail of the orders state.
func protectedValues(st map[string]any) []string {
	var out []string
	for _, it := range st["orders"].(map[string]any)["items"].([]any) {
		o := it.(map[string]any)
		c := o["customer"].(map[string]any)
		out = append(out, c["phone"].(string), c["email"].(string), o["payment"].(map[string]any)["card"].(string))
	}
	return out
}

// TestTokenLaundering: each way the security issue passed a token where the
// manifest did not ask for it. The capability's handler here does what the
// issue's did: it writes every string of its input into a plain page
// parameter, so a resolved value would show in the next describe. Every
// attempt must be invalid_input with the pointer of the property, and the
// plaintext must reach neither the prepared input nor the context.
func TestTokenLaundering(t *testing.T) {
	filter := `{"name":"orders.filter","description":"Filter the list by status","scope":"page","region":"orders",
	  "input":{"type":"object","properties":{"status":{"type":"string"},"tags":{"type":"array"},"meta":{"type":"object"}}}}`
	ship := `{"name":"order.note","description":"Add a note to the order","scope":"record","region":"orders",
	  "input":{"type":"object","properties":{"text":{"type":"string"},"items":{"type":"array"}}}}`
	s, st, seen := ordersTokens(t, filter, ship)
	phoneA, _ := seen["SO-1001"]["phone"].(string)
	cardA, _ := json.Marshal(seen["SO-1001"]["card"])
	cardB, _ := json.Marshal(seen["SO-1002"]["card"])
	if !strings.HasPrefix(phoneA, "al_") || !bytes.Contains(cardA, []byte(`"ph_`)) || !bytes.Contains(cardB, []byte(`"ph_`)) {
		t.Fatalf("the describe shows no tokens: %v", seen)
	}
	secrets := protectedValues(st)
	cases := []struct {
		name, req, param string
	}{
		{"alias as the free text of a page-scope capability",
			`"capability":"orders.filter","input":{"status":"` + phoneA + `"}`, "/status"},
		{"alias inside free text",
			`"capability":"orders.filter","input":{"status":"status ` + phoneA + `, please"}`, "/status"},
		{"alias in upper case",
			`"capability":"orders.filter","input":{"status":"` + strings.ToUpper(phoneA) + `"}`, "/status"},
		{"another order's card placeholder in an action on this order",
			`"capability":"order.charge","record":"SO-1001","input":{"card":` + string(cardB) + `,"amount":5}`, "/card"},
		{"card placeholder in a non-slot property of a record capability",
			`"capability":"order.note","record":"SO-1001","input":{"text":` + string(cardA) + `}`, "/text"},
		{"alias nested in an array",
			`"capability":"orders.filter","input":{"tags":["a",["b","` + phoneA + `"]]}`, "/tags/1/1"},
		{"placeholder nested in an array of a record capability",
			`"capability":"order.note","record":"SO-1001","input":{"items":[1,` + string(cardA) + `]}`, "/items/1"},
		{"alias nested in objects",
			`"capability":"orders.filter","input":{"meta":{"a":{"b":"` + phoneA + `"}}}`, "/meta/a/b"},
		{"placeholder object in a non-slot",
			`"capability":"orders.filter","input":{"status":` + string(cardA) + `}`, "/status"},
		{"placeholder object as the whole input member of an object",
			`"capability":"orders.filter","input":{"meta":` + string(cardA) + `}`, "/meta"},
		{"alias as a member name",
			`"capability":"orders.filter","input":{"meta":{"` + phoneA + `":true}}`, "/meta"},
		{"alias in the card slot",
			`"capability":"order.charge","record":"SO-1001","input":{"card":"` + phoneA + `","amount":5}`, "/card"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, out := tokenCall(t, s, `{"op":"prepare",`+c.req+`}`)
			e, _ := r["error"].(map[string]any)
			if e == nil || e["code"] != "invalid_input" || e["param"] != c.param {
				t.Errorf("want invalid_input at %s, got %s", c.param, out)
			}
			if r["ok"] == true {
				// The handler writes its input into the page parameter.
				in, _ := json.Marshal(r["input"])
				patch := `[{"op":"replace","path":"/router/query/status","value":` + strconv.Quote(string(in)) + `}]`
				tokenCall(t, s, `{"op":"observe","patch":`+patch+`}`)
			}
			_, d := tokenCall(t, s, `{"op":"describe","limit":2}`)
			for _, v := range secrets {
				if bytes.Contains(out, []byte(v)) || bytes.Contains(d, []byte(v)) {
					t.Fatalf("a protected value was laundered: %s", out)
				}
			}
		})
	}
	// The declared slot still works for the record's own card, and only
	// for the app's handler.
	r, out := tokenCall(t, s, `{"op":"prepare","capability":"order.charge","record":"SO-1001","input":{"card":`+string(cardA)+`,"amount":5}}`)
	if r["ok"] != true || r["input"].(map[string]any)["card"] != "4111 1111 1111 1000" {
		t.Fatalf("the slot does not resolve the record's own card: %s", out)
	}
}

// TestTokenSlotPageScope: in a page-scope capability the token chooses the
// record: it resolves when a referenceable record of the capability's
// collections holds the value behind it now, and not once the value is
// gone from every such record.
func TestTokenSlotPageScope(t *testing.T) {
	call := `{"name":"customers.call","description":"Call a customer back","scope":"page","region":"orders",
	  "input":{"type":"object","properties":{"phone":{"type":"string","x-pinhole-token":{"field":"phone","record":"token"}}}}}`
	s, _, seen := ordersTokens(t, call)
	phoneB := seen["SO-1002"]["phone"].(string)
	req := `{"op":"prepare","capability":"customers.call","input":{"phone":"` + phoneB + `"}}`
	if r, out := tokenCall(t, s, req); r["ok"] != true || r["input"].(map[string]any)["phone"] != "+44 20 7946 1037" {
		t.Fatalf("the phone of SO-1002 does not resolve: %s", out)
	}
	tokenCall(t, s, `{"op":"observe","patch":[{"op":"replace","path":"/orders/items/1/customer/phone","value":"+44 20 7946 0000"}]}`)
	r, out := tokenCall(t, s, req)
	if e, _ := r["error"].(map[string]any); e == nil || e["code"] != "invalid_input" || e["param"] != "/phone" {
		t.Fatalf("a token whose value no record holds any more resolved: %s", out)
	}
}

// TestSlotSchemaNeverJudgesHiddenValue: the reviewer's reproduction. A
// placeholder field holds a composite whose keys are the app's data
// ("ssn-123-45-6789"). A slot schema that would walk the value behind the
// token (properties, additionalProperties: false) made prepare name such a
// key in its error; such a schema is now refused at load, and a slot that
// declares only its type resolves, or fails with a fixed message naming
// the slot alone. No answer holds a key or value of the protected value.
func TestSlotSchemaNeverJudgesHiddenValue(t *testing.T) {
	const hidden = `{"city":"Paris","ssn-123-45-6789":"x","constructor":{"prototype":{"zqkey/~odd":1}}}`
	leaks := []string{"ssn-123", "Paris", "zqkey", "~1odd", "constructor"}
	manifest := func(slot string) string {
		return `{"pinhole":1,"regions":[{"id":"r"}],
		  "collections":[{"region":"r","from":"/people","id":"/id","fields":{"addr":{"from":"/addr","expose":"placeholder"}}}],
		  "capabilities":[{"name":"person.ship","description":"Ship to the person","scope":"record","region":"r",
		    "input":{"type":"object","properties":{"addr":` + slot + `,"note":{"type":"string"}},"additionalProperties":false}}]}`
	}
	state := `{"people":[{"id":"P-1","addr":` + hidden + `}]}`
	token := func(t *testing.T, s *session.Session) string {
		d, out := tokenCall(t, s, `{"op":"describe","record":["P-1"]}`)
		rec := d["context"].(map[string]any)["records"].([]any)[0].(map[string]any)
		ph, _ := rec["fields"].(map[string]any)["addr"].(map[string]any)["$placeholder"].(string)
		if !strings.HasPrefix(ph, "ph_") {
			t.Fatalf("no placeholder shown: %s", out)
		}
		return ph
	}
	noLeak := func(t *testing.T, out []byte) {
		t.Helper()
		for _, l := range leaks {
			if bytes.Contains(out, []byte(l)) {
				t.Fatalf("the answer shows %q of the protected value: %s", l, out)
			}
		}
	}
	// The reviewer's slot, and each keyword that would judge or walk the
	// hidden value: refused at load with the keyword's pointer.
	for _, kw := range []string{`"properties":{"city":{}},"additionalProperties":false`, `"required":["city"]`,
		`"enum":[{"city":"Paris"}]`, `"minLength":3`, `"maxItems":1`, `"items":{}`} {
		s := session.New()
		r, out := tokenCall(t, s, `{"op":"load","key":"slot-schema-key-001","manifest":`+
			manifest(`{"type":"object",`+kw+`,"x-pinhole-token":{"field":"addr"}}`)+`}`)
		e, _ := r["error"].(map[string]any)
		name := kw[1 : strings.Index(kw[1:], `"`)+1]
		if e == nil || e["code"] != "invalid_manifest" || e["param"] != "/capabilities/0/input/properties/addr/"+name {
			t.Errorf("slot with %s: want invalid_manifest at its keyword, got %s", name, out)
			// What the old prepare answered for this manifest.
			tokenCall(t, s, `{"op":"observe","state":`+state+`}`)
			_, out = tokenCall(t, s, `{"op":"prepare","capability":"person.ship","record":"P-1","input":{"addr":{"$placeholder":"`+token(t, s)+`"}}}`)
			noLeak(t, out)
		}
	}
	for _, c := range []struct {
		name, slot, input, param string
	}{
		{"type only resolves", `{"type":"object","x-pinhole-token":{"field":"addr"}}`, `{"addr":TOKEN}`, ""},
		{"no type resolves", `{"description":"Where to","x-pinhole-token":{"field":"addr"}}`, `{"addr":TOKEN,"note":"n"}`, ""},
		{"wrong type names only the slot", `{"type":"string","x-pinhole-token":{"field":"addr"}}`, `{"addr":TOKEN}`, "/addr"},
		{"the rest of the input is still checked", `{"type":"object","x-pinhole-token":{"field":"addr"}}`, `{"addr":TOKEN,"extra":1}`, "/extra"},
		{"checked before resolving", `{"type":"object","x-pinhole-token":{"field":"addr"}}`, `{"addr":TOKEN,"note":5}`, "/note"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := session.New()
			if r, out := tokenCall(t, s, `{"op":"load","key":"slot-schema-key-001","manifest":`+manifest(c.slot)+`}`); r["loaded"] != true {
				t.Fatalf("load: %s", out)
			}
			tokenCall(t, s, `{"op":"observe","state":`+state+`}`)
			in := strings.Replace(c.input, "TOKEN", `{"$placeholder":"`+token(t, s)+`"}`, 1)
			r, out := tokenCall(t, s, `{"op":"prepare","capability":"person.ship","record":"P-1","input":`+in+`}`)
			if c.param == "" {
				got, _ := json.Marshal(r["input"].(map[string]any)["addr"])
				if r["ok"] != true || !jsonEqual(t, got, []byte(hidden)) {
					t.Fatalf("the slot does not hand the handler the value: %s", out)
				}
				return
			}
			e, _ := r["error"].(map[string]any)
			if e == nil || e["code"] != "invalid_input" || e["param"] != c.param {
				t.Fatalf("want invalid_input at %s, got %s", c.param, out)
			}
			if c.param == "/addr" && e["message"] != "input/addr: the value behind this token is not a string" {
				t.Errorf("message %q is not the fixed one", e["message"])
			}
			noLeak(t, out)
		})
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s / %s", a, b)
	}
	return reflect.DeepEqual(x, y)
}

// TestTokenSlotsCanaryProperty: random manifests, each with collections
// whose alias and placeholder fields hold unique canaries (strings, or
// objects whose keys and values are canaries, with odd keys and prototype
// keys), and random record- and page-scope capabilities with token slots
// (typed to match the field, mistyped or untyped) next to plain
// properties; random inputs put the tokens the agent saw (of every record
// and field), made-up tokens and text into slots, other properties,
// arrays, objects and member names. A world's variant whose slot schemas
// would walk the value (properties, additionalProperties) must be refused
// at load. In every answer and error: no canary, key or value, outside the
// prepared input; in the prepared input, a canary only at a slot, and only
// the value of the slot's field in the record the slot refers to.
func TestTokenSlotsCanaryProperty(t *testing.T) {
	worlds := 120
	if testing.Short() {
		worlds = 40
	}
	var prepares, resolved, rejected, typeRefused, strictRefused int
	for seed := uint64(1); seed <= uint64(worlds); seed++ {
		w := newTokenWorld(seed)
		s := session.New()
		if w.strict != "" {
			// A slot schema that would walk the value behind the token is
			// refused at load; the world goes on with type-only slots.
			r, out := tokenCall(t, s, `{"op":"load","key":"token-canary-key-01","manifest":`+w.strict+`}`)
			if e, _ := r["error"].(map[string]any); e == nil || e["code"] != "invalid_manifest" {
				t.Fatalf("world %d: a slot schema with properties loaded: %s", seed, out)
			}
			strictRefused++
		}
		if r, out := tokenCall(t, s, `{"op":"load","key":"token-canary-key-01","manifest":`+w.manifest+`}`); r["loaded"] != true {
			t.Fatalf("world %d: load: %s\n%s", seed, out, w.manifest)
		}
		tokenCall(t, s, `{"op":"observe","state":`+w.state+`}`)
		d, out := tokenCall(t, s, `{"op":"describe","limit":50}`)
		w.check(t, "describe", out)
		if d["error"] != nil {
			t.Fatalf("world %d: describe: %s", seed, out)
		}
		// The tokens the agent saw, with the record and field they came from.
		var toks []seenToken
		for _, r := range d["context"].(map[string]any)["records"].([]any) {
			rec := r.(map[string]any)
			for name, v := range rec["fields"].(map[string]any) {
				switch x := v.(type) {
				case string:
					if strings.HasPrefix(x, "al_") {
						toks = append(toks, seenToken{rec["id"].(string), name, x, false})
					}
				case map[string]any:
					if p, ok := x["$placeholder"].(string); ok {
						toks = append(toks, seenToken{rec["id"].(string), name, p, true})
					}
				}
			}
		}
		sort.Slice(toks, func(i, j int) bool { return toks[i].token < toks[j].token })
		if len(toks) == 0 {
			t.Fatalf("world %d: no tokens shown", seed)
		}
		for i := 0; i < 40; i++ {
			c := w.caps[w.rng.IntN(len(w.caps))]
			req := map[string]any{"op": "prepare", "capability": c.name}
			record := ""
			if c.record {
				record = w.ids[w.rng.IntN(len(w.ids))]
				req["record"] = record
			}
			in := map[string]any{}
			for _, sl := range c.slots {
				if w.rng.IntN(4) > 0 {
					in[sl.prop] = w.tokenValue(toks, sl, record)
				}
			}
			for _, p := range []string{"text", "list", "obj"} {
				if w.rng.IntN(3) == 0 {
					in[p] = w.stray(toks, p)
				}
			}
			req["input"] = in
			rb, _ := json.Marshal(req)
			r, out := tokenCall(t, s, string(rb))
			prepares++
			if r["ok"] != true {
				if e, _ := r["error"].(map[string]any); e != nil && e["code"] == "invalid_input" {
					rejected++
					if m, _ := e["message"].(string); strings.Contains(m, "the value behind this token") {
						typeRefused++
					}
				}
				w.check(t, "prepare error", out)
				continue
			}
			prepared, _ := r["input"].(map[string]any)
			delete(r, "input")
			rest, _ := json.Marshal(r)
			w.check(t, "prepare answer", rest)
			for _, sl := range c.slots {
				v, ok := prepared[sl.prop]
				if !ok {
					continue
				}
				if !w.allowed(sl, record, v) {
					t.Fatalf("world %d: slot %s of %s resolved to %v, not a value of field %s of the record it refers to (record %q)\nrequest %s",
						seed, sl.prop, c.name, v, sl.field, record, rb)
				}
				if _, isObj := v.(map[string]any); sl.typ != "" && isObj != (sl.typ == "object") {
					t.Fatalf("world %d: slot %s typed %s resolved to %v", seed, sl.prop, sl.typ, v)
				}
				resolved++
				delete(prepared, sl.prop)
			}
			left, _ := json.Marshal(prepared)
			w.check(t, "prepared input outside slots", left)
		}
	}
	if resolved == 0 || rejected == 0 || typeRefused == 0 || strictRefused == 0 {
		t.Fatalf("%d slots resolved, %d inputs rejected (%d for the slot's type), %d walking slot schemas refused: the property did not reach every side",
			resolved, rejected, typeRefused, strictRefused)
	}
	fmt.Printf("token slots: %d random worlds, %d prepares: %d slot values resolved, each the value of its field in the record it refers to; %d rejected as invalid_input (%d for the slot's type); %d manifests with walking slot schemas refused; no canary (value or key of a protected value) outside a slot\n",
		worlds, prepares, resolved, rejected, typeRefused, strictRefused)
}

type seenToken struct {
	record, field, token string
	placeholder          bool
}

type tokenSlotInfo struct {
	prop, field string
	placeholder bool
	typ         string // the slot schema's type, "" for none
}

type tokenCap struct {
	name   string
	record bool
	slots  []tokenSlotInfo
}

// tokenWorld is one random manifest and state for the slot property.
type tokenWorld struct {
	rng             *rand.Rand
	manifest, state string
	strict          string // the manifest with slot schemas that walk the value, or ""
	ids             []string
	values          map[string]map[string]any // record -> field -> canary, or an object of canaries
	canaries        []string
	fields          map[string]bool // protected field name -> placeholder?
	caps            []tokenCap
}

func newTokenWorld(seed uint64) *tokenWorld {
	w := &tokenWorld{rng: rand.New(rand.NewPCG(seed, 11)), values: map[string]map[string]any{}, fields: map[string]bool{}}
	nf := 1 + w.rng.IntN(4)
	fields := map[string]any{"label": map[string]any{"from": "/label"}}
	var names []string
	composite := map[string]bool{} // fields whose values are objects
	for i := 0; i < nf; i++ {
		name := "f" + strconv.Itoa(i)
		ph := w.rng.IntN(2) == 0
		composite[name] = w.rng.IntN(3) == 0
		w.fields[name] = ph
		mode := "alias"
		if ph {
			mode = "placeholder"
		}
		fields[name] = map[string]any{"from": "/" + name, "expose": mode}
		names = append(names, name)
	}
	var items []any
	n := 2 + w.rng.IntN(6)
	for i := 0; i < n; i++ {
		id := "R-" + strconv.Itoa(i)
		it := map[string]any{"id": id, "label": "Record " + strconv.Itoa(i)}
		w.values[id] = map[string]any{}
		for _, f := range names {
			c := fmt.Sprintf("zqcanary%d%s%sQ", seed, strings.ReplaceAll(id, "-", ""), f)
			var v any = c
			if composite[f] {
				// Keys are the app's data too: odd ones (a pointer's
				// separators, spaces, a data-shaped name) and prototype
				// keys. Every key and value is a canary.
				k1, k2, k3 := c+"K/~ 1", c+"ssn-123-45-6789", c+"P"
				v = map[string]any{k1: c + "V1", k2: "x", "constructor": map[string]any{"prototype": map[string]any{k3: c + "V2"}},
					"__proto__": map[string]any{c + "Z": true}}
				w.canaries = append(w.canaries, k1, c+"V1", k2, k3, c+"V2", c+"Z")
			}
			if w.rng.IntN(5) == 0 && i > 0 { // a value shared with the previous record
				v = w.values["R-"+strconv.Itoa(i-1)][f]
			} else {
				w.canaries = append(w.canaries, c)
			}
			it[f] = v
			w.values[id][f] = v
		}
		items = append(items, it)
		w.ids = append(w.ids, id)
	}
	var caps, strictCaps []any
	for i, nc := 0, 1+w.rng.IntN(3); i < nc; i++ {
		c := tokenCap{name: "cap" + strconv.Itoa(i) + ".run", record: w.rng.IntN(2) == 0}
		props := map[string]any{"text": map[string]any{"type": "string"}, "list": map[string]any{"type": "array"}, "obj": map[string]any{"type": "object"}}
		strictProps := map[string]any{}
		for j, ns := 0, 1+w.rng.IntN(2); j < ns; j++ {
			f := names[w.rng.IntN(len(names))]
			sl := tokenSlotInfo{prop: "slot" + strconv.Itoa(j), field: f, placeholder: w.fields[f], typ: "string"}
			if composite[f] {
				sl.typ = "object"
			}
			switch w.rng.IntN(5) {
			case 0: // the wrong type: prepare refuses the value behind the token
				sl.typ = map[string]string{"string": "object", "object": "string"}[sl.typ]
			case 1:
				sl.typ = ""
			}
			kw := map[string]any{"field": f}
			if !c.record {
				kw["record"] = "token"
			}
			schema := map[string]any{"x-pinhole-token": kw}
			if sl.typ != "" {
				schema["type"] = sl.typ
			}
			props[sl.prop] = schema
			c.slots = append(c.slots, sl)
			strict := map[string]any{"properties": map[string]any{}, "additionalProperties": false}
			for k, v := range schema {
				strict[k] = v
			}
			strictProps[sl.prop] = strict
		}
		scope := "page"
		if c.record {
			scope = "record"
		}
		caps = append(caps, map[string]any{"name": c.name, "description": "Capability " + strconv.Itoa(i), "scope": scope, "region": "r",
			"input": map[string]any{"type": "object", "properties": props}})
		if w.rng.IntN(3) == 0 {
			for k, v := range props {
				if strictProps[k] == nil {
					strictProps[k] = v
				}
			}
		} else {
			strictProps = props
		}
		strictCaps = append(strictCaps, map[string]any{"name": c.name, "description": "Capability " + strconv.Itoa(i), "scope": scope, "region": "r",
			"input": map[string]any{"type": "object", "properties": strictProps}})
		w.caps = append(w.caps, c)
	}
	m := map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "r"}},
		"collections":  []any{map[string]any{"region": "r", "from": "/items", "id": "/id", "fields": fields}},
		"capabilities": caps}
	mb, _ := json.Marshal(m)
	if !reflect.DeepEqual(caps, strictCaps) {
		m["capabilities"] = strictCaps
		sm, _ := json.Marshal(m)
		w.strict = string(sm)
	}
	sb, _ := json.Marshal(map[string]any{"items": items, "undeclared": fmt.Sprintf("zqcanary%dundeclaredQ", seed)})
	w.canaries = append(w.canaries, fmt.Sprintf("zqcanary%dundeclaredQ", seed))
	w.manifest, w.state = string(mb), string(sb)
	return w
}

// tokenValue picks what goes into slot sl: usually a token the agent saw
// (of any record and field, in either form), sometimes a made-up token or
// text.
func (w *tokenWorld) tokenValue(toks []seenToken, sl tokenSlotInfo, record string) any {
	switch w.rng.IntN(8) {
	case 0:
		return "al_" + strings.Repeat("a", 24)
	case 1:
		return map[string]any{"$placeholder": "ph_" + strings.Repeat("b", 24)}
	case 2:
		return "plain text"
	}
	// Prefer the acted-on record's own token of the slot's field, so both
	// sides of the property are reached.
	var pick seenToken
	if w.rng.IntN(2) == 0 {
		for _, tk := range toks {
			if tk.field == sl.field && (record == "" || tk.record == record) {
				pick = tk
				break
			}
		}
	}
	if pick.token == "" {
		pick = toks[w.rng.IntN(len(toks))]
	}
	if pick.placeholder {
		return map[string]any{"$placeholder": pick.token}
	}
	return pick.token
}

// stray puts a token where no slot is: alone, in text, in an array, in an
// object, as a member name, as a placeholder object.
func (w *tokenWorld) stray(toks []seenToken, prop string) any {
	tk := toks[w.rng.IntN(len(toks))]
	var v any = tk.token
	if tk.placeholder {
		v = map[string]any{"$placeholder": tk.token}
	}
	switch w.rng.IntN(6) {
	case 0:
		if prop == "text" {
			return "see " + tk.token + " now"
		}
	case 1:
		return []any{"x", []any{v}}
	case 2:
		return map[string]any{"a": map[string]any{"b": v}}
	case 3:
		return map[string]any{tk.token: 1}
	case 4:
		return "nothing to see"
	}
	return v
}

// allowed reports whether v is a value slot sl may resolve to: the slot's
// field in the request's record (record scope) or in any record (page
// scope, the token chooses the record).
func (w *tokenWorld) allowed(sl tokenSlotInfo, record string, v any) bool {
	if record != "" {
		return reflect.DeepEqual(w.values[record][sl.field], v)
	}
	for _, id := range w.ids {
		if reflect.DeepEqual(w.values[id][sl.field], v) {
			return true
		}
	}
	return false
}

// check fails when out holds a canary, raw or JSON-escaped, or its first
// twelve characters.
func (w *tokenWorld) check(t *testing.T, what string, out []byte) {
	t.Helper()
	for _, c := range w.canaries {
		if bytes.Contains(out, []byte(c)) || bytes.Contains(out, []byte(c[:12])) {
			t.Fatalf("%s shows a protected value: %s", what, out)
		}
	}
}
