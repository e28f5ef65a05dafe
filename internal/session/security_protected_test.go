package session_test

// SECURITY.md §2 "Masked, aliased and placeholder values never show": a
// protected value declared a second time, tokens across session scopes, and
// no existence oracle for ids.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

// TestProtectedValueDeclaredTwice: a value declared mask, alias or
// placeholder must not reach the agent through another declaration that
// covers it — a plain field of its parent object, the record id, declared
// state or the page. The module either rejects such a manifest at load or
// keeps the value protected; it never shows it.
func TestProtectedValueDeclaredTwice(t *testing.T) {
	secret := "zqProtectedValue0042"
	state := map[string]any{"ui": map[string]any{"card": secret},
		"orders": []any{map[string]any{"id": "SO-1", "customer": map[string]any{"card": secret, "name": "Lin"}, "ref": secret}}}
	field := func(from, mode string) map[string]any { return map[string]any{"from": from, "expose": mode} }
	cases := map[string]map[string]any{
		"plain parent field": {"card": field("/customer/card", "placeholder"), "customer": field("/customer", "plain")},
		"plain same path":    {"card": field("/customer/card", "mask"), "again": field("/customer/card", "plain")},
		"id is protected":    {"ref": field("/ref", "alias")},
	}
	for name, fields := range cases {
		for _, mode := range []string{"mask", "alias", "placeholder"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				for k, v := range fields {
					if f := v.(map[string]any); f["expose"] != "plain" {
						fields[k] = field(f["from"].(string), mode)
					}
				}
				id := "/id"
				if name == "id is protected" {
					id = "/ref"
				}
				m := map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "o"}},
					"collections": []any{map[string]any{"region": "o", "from": "/orders", "id": id, "fields": fields}}}
				cs := newCanaries(rand.New(rand.NewPCG(3, 3)))
				cs.register(secret)
				s := session.New()
				out := s.Call(mustJSON(map[string]any{"op": "load", "key": "overlap-test-key-001", "manifest": m}))
				checkResponse(t, "load", out, cs, 0)
				if bytes.Contains(out, []byte(`"error"`)) {
					if !bytes.Contains(out, []byte(`"invalid_manifest"`)) {
						t.Fatalf("load: %s", out)
					}
					return // rejected at load: fine
				}
				checkResponse(t, "observe", s.Call(mustJSON(map[string]any{"op": "observe", "state": state})), cs, 0)
				checkResponse(t, "describe", s.Call([]byte(`{"op":"describe"}`)), cs, 0)
			})
		}
	}
	// Absolute declarations that cover a protected record field.
	extras := map[string]map[string]any{
		"state covers the collection": {"state": map[string]any{"all": "/orders"}},
		"state names the item value":  {"state": map[string]any{"first": "/orders/0/customer/card"}},
		"page title is the value":     {"page": map[string]any{"title": "/orders/0/customer"}},
		"feedback reads the items":    {"feedback": map[string]any{"from": "/orders", "text": "/customer/card"}},
	}
	for name, extra := range extras {
		t.Run(name, func(t *testing.T) {
			m := map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "o"}},
				"collections": []any{map[string]any{"region": "o", "from": "/orders", "id": "/id",
					"fields": map[string]any{"card": field("/customer/card", "placeholder")}}}}
			for k, v := range extra {
				m[k] = v
			}
			cs := newCanaries(rand.New(rand.NewPCG(3, 3)))
			cs.register(secret)
			s := session.New()
			out := s.Call(mustJSON(map[string]any{"op": "load", "key": "overlap-test-key-001", "manifest": m}))
			checkResponse(t, "load", out, cs, 0)
			if bytes.Contains(out, []byte(`"error"`)) {
				if !bytes.Contains(out, []byte(`"invalid_manifest"`)) {
					t.Fatalf("load: %s", out)
				}
				return // rejected at load: fine
			}
			checkResponse(t, "observe", s.Call(mustJSON(map[string]any{"op": "observe", "state": state})), cs, 0)
			checkResponse(t, "describe", s.Call([]byte(`{"op":"describe"}`)), cs, 0)
		})
	}
}

// TestScopeChangeForgetsTokens: when the session scope (tenant, account,
// user) changes, placeholders handed out before stop resolving, so an
// agent cannot carry a token of one tenant into another.
func TestScopeChangeForgetsTokens(t *testing.T) {
	m := `{"pinhole":1,"sessionScope":"/tenant","regions":[{"id":"a"}],
	 "collections":[{"region":"a","from":"/orders","id":"/id","fields":{"card":{"from":"/card","expose":"placeholder"}}}],
	 "capabilities":[{"name":"order.charge","description":"Charge","scope":"record","region":"a",
	   "input":{"type":"object","properties":{"card":{"x-pinhole-token":{"field":"card"}}}}}]}`
	state := func(tenant string) []byte {
		return []byte(`{"op":"observe","state":{"tenant":"` + tenant + `","orders":[{"id":"SO-1","card":"4111 1111 1111 1000"}]}}`)
	}
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"scope-test-key-0001","manifest":` + m + `}`))
	s.Call(state("acme"))
	desc := s.Call([]byte(`{"op":"describe"}`))
	i := bytes.Index(desc, []byte(`"ph_`))
	if i < 0 {
		t.Fatalf("no placeholder in %s", desc)
	}
	tok := string(desc[i+1 : i+1+bytes.IndexByte(desc[i+1:], '"')])
	prepare := []byte(`{"op":"prepare","capability":"order.charge","record":"SO-1","input":{"card":{"$placeholder":"` + tok + `"}}}`)
	if before := s.Call(prepare); !bytes.Contains(before, []byte(`"4111 1111 1111 1000"`)) {
		t.Fatalf("the placeholder does not resolve in its own scope: %s", before)
	}
	s.Call(state("other-tenant"))
	after := s.Call(prepare)
	checkResponse(t, "prepare after scope change", after, nil, 0)
	if bytes.Contains(after, []byte("4111 1111 1111 1000")) || !bytes.Contains(after, []byte(`"error"`)) {
		t.Fatalf("a placeholder of the old scope still resolves: %s", after)
	}
}

// TestNoExistenceOracle: an id that exists but is not referenceable now (in
// an inactive region) and an id that never existed get byte-identical
// answers, from describe and from prepare.
func TestNoExistenceOracle(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"a"},{"id":"hidden","activeWhen":{"path":"/on","eq":true}}],
	 "collections":[{"region":"a","from":"/a","id":"/id","fields":{"n":{"from":"/n"}}},
	                {"region":"hidden","from":"/h","id":"/id","fields":{"n":{"from":"/n"}}}],
	 "capabilities":[{"name":"x.run","description":"Run","scope":"record","region":"a"}]}`
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"oracle-test-key-001","manifest":` + m + `}`))
	s.Call([]byte(`{"op":"observe","state":{"on":false,"a":[{"id":"A1","n":1}],"h":[{"id":"H1","n":2}]}}`))
	for _, q := range []string{
		`{"op":"describe","record":["%s"]}`,
		`{"op":"prepare","capability":"x.run","record":"%s","input":{}}`,
	} {
		hidden := s.Call([]byte(fmt.Sprintf(q, "H1")))
		unknown := s.Call([]byte(fmt.Sprintf(q, "Z9")))
		if !bytes.Equal(hidden, unknown) || !bytes.Contains(hidden, []byte(`"error"`)) {
			t.Errorf("%s: inactive id answers %s, unknown id %s", q, hidden, unknown)
		}
	}
}

// TestScopeChangeUnlinksTokens: the same value under a new session scope
// (another tenant, account or user) gets new aliases and placeholders, so
// the agent cannot tell that two tenants share a value, and a token of the
// old scope does not come back to life once the new scope is described.
func TestScopeChangeUnlinksTokens(t *testing.T) {
	m := `{"pinhole":1,"sessionScope":"/tenant","regions":[{"id":"a"}],
	 "collections":[{"region":"a","from":"/orders","id":"/id","fields":{
	   "card":{"from":"/card","expose":"placeholder"},"phone":{"from":"/phone","expose":"alias"}}}]}`
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"scope-test-key-0001","manifest":` + m + `}`))
	tokens := func(tenant string) (string, string) {
		s.Call([]byte(`{"op":"observe","state":{"tenant":"` + tenant + `","orders":[{"id":"SO-1","card":"4111 1111 1111 1000","phone":"+44 20 7946 1000"}]}}`))
		var r struct {
			Context struct {
				Records []struct {
					Fields struct {
						Card struct {
							Placeholder string `json:"$placeholder"`
						}
						Phone string
					}
				}
			}
		}
		if err := json.Unmarshal(s.Call([]byte(`{"op":"describe"}`)), &r); err != nil || len(r.Context.Records) != 1 {
			t.Fatalf("describe: %v", err)
		}
		f := r.Context.Records[0].Fields
		return f.Card.Placeholder, f.Phone
	}
	ph1, al1 := tokens("acme")
	ph2, al2 := tokens("other-tenant")
	if ph1 == "" || al1 == "" {
		t.Fatal("no tokens")
	}
	if ph1 == ph2 || al1 == al2 {
		t.Fatalf("the same value has the same tokens under two session scopes (placeholder %s/%s, alias %s/%s): the agent can link tenants", ph1, ph2, al1, al2)
	}
}

// TestScopeComeBack: a session scope left and come back to (A→B→A). The
// module forgot A's tokens at B, so an after since the first A snapshot
// hands them out again: it lists the token fields (the same tokens), with
// no scope reason, since the scope's value is A's again. A prepare with the
// first snapshot is stale; with the current one, right after that after,
// the token resolves; and a describe shows the first context again.
func TestScopeComeBack(t *testing.T) {
	m := `{"pinhole":1,"sessionScope":"/tenant","regions":[{"id":"a"}],
	 "collections":[{"region":"a","from":"/orders","id":"/id","fields":{
	   "card":{"from":"/card","expose":"placeholder"},"phone":{"from":"/phone","expose":"alias"}}}],
	 "capabilities":[{"name":"order.charge","description":"Charge","scope":"record","region":"a",
	   "input":{"type":"object","properties":{"card":{"x-pinhole-token":{"field":"card"}}}}}]}`
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"scope-test-key-0001","manifest":` + m + `}`))
	observe := func(tenant string) {
		s.Call([]byte(`{"op":"observe","state":{"tenant":"` + tenant + `","orders":[{"id":"SO-1","card":"4111 1111 1111 1000","phone":"+44 20 7946 1000"}]}}`))
	}
	observe("acme")
	first := s.Call([]byte(`{"op":"describe"}`))
	i := bytes.Index(first, []byte(`"ph_`))
	if !bytes.Contains(first, []byte(`"snapshot":"s1"`)) || i < 0 {
		t.Fatalf("describe: %s", first)
	}
	tok := string(first[i+1 : i+1+bytes.IndexByte(first[i+1:], '"')])
	observe("other-tenant")
	observe("acme")
	var a struct {
		Records struct {
			Changed []struct {
				Fields map[string]json.RawMessage
			}
		}
		Redescribe struct {
			Reasons []string
		}
	}
	if err := json.Unmarshal(s.Call([]byte(`{"op":"after","since":"s1"}`)), &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Records.Changed) != 1 || len(a.Records.Changed[0].Fields) != 2 || slices.Contains(a.Redescribe.Reasons, "scope") ||
		string(a.Records.Changed[0].Fields["card"]) != `{"$placeholder":"`+tok+`"}` {
		t.Fatalf("A→B→A: want A's token fields handed out again and no scope reason, got %+v", a)
	}
	prepare := []byte(`{"op":"prepare","snapshot":"s1","capability":"order.charge","record":"SO-1","input":{"card":{"$placeholder":"` + tok + `"}}}`)
	if got := s.Call(prepare); !bytes.Contains(got, []byte(`"stale_snapshot"`)) {
		t.Fatalf("a prepare with the snapshot before B: %s", got)
	}
	prepare = bytes.Replace(prepare, []byte(`"s1"`), []byte(`"s3"`), 1)
	if got := s.Call(prepare); !bytes.Contains(got, []byte(`"4111 1111 1111 1000"`)) {
		t.Fatalf("A's placeholder, handed out again by the after, does not resolve: %s", got)
	}
	again := s.Call([]byte(`{"op":"describe"}`))
	if !bytes.Equal(bytes.Replace(again, []byte(`"snapshot":"s3"`), []byte(`"snapshot":"s1"`), 1), first) {
		t.Fatalf("A's context came back different:\n%s\n%s", first, again)
	}
}

// TestHiddenChangesDoNotShow: a change the agent cannot see — a masked
// value under the same mask, a value only an availability rule reads, the
// tail of a state string past maxFieldChars, a redacted value, the reason
// of a cut value (shown as null either way) — shows neither as a new
// snapshot id, nor in after, nor as a stale snapshot. Before, after listed
// such state keys and gave "navigation" for a redacted route that changed,
// prepare with the older snapshot answered stale_snapshot for exactly the
// records whose hidden data had changed, and the snapshot id changed.
func TestHiddenChangesDoNotShow(t *testing.T) {
	m := `{"pinhole":1,"limits":{"maxFieldChars":16},"page":{"route":"/route"},
	 "regions":[{"id":"r","description":"Orders"}],
	 "state":{"banner":"/banner","conn":"/conn"},
	 "collections":[{"region":"r","from":"/orders","id":"/id","fields":{
	   "status":{"from":"/status"},"email":{"from":"/email","expose":"mask"},"tag":{"from":"/tag","expose":"alias"}}}],
	 "capabilities":[{"name":"order.open","description":"Open the order","scope":"record","region":"r",
	   "unavailable":[{"when":{"field":"/risk","gt":90},"reason":"Risky orders cannot be opened"}]}]}`
	state := func(route, tail, pw, email string, risk int, cut, statusC string) string {
		return `{"route":"/a?token=` + route + `","banner":"Public banner text / hidden tail ` + tail + `",
		  "conn":"postgres://app:` + pw + `@db.internal:5432/app",
		  "orders":[{"id":"A","status":"open","email":"` + email + `@example.com","risk":10,"tag":{"$cut":"` + cut + `"}},
		            {"id":"B","status":"open","email":"bo@example.com","risk":` + fmt.Sprint(risk) + `},
		            {"id":"C","status":"` + statusC + `","email":"cy@example.com","risk":10}]}`
	}
	hidden := state("ghp_2xMzwGU1Wc8gGNYzFDTmaIzgyqA3NioBegpH", "B", "0therS3cret", "lisa.secret", 42, "cycle", "open")
	s := session.New()
	for _, req := range []string{
		`{"op":"load","key":"hidden-change-key-01","manifest":` + m + `}`,
		`{"op":"observe","state":` + state("ghp_VMWXocEBilPB6hyWTFeudNmbuRTZ7CKPFaM6", "A", "Sup3rS3cret", "lena.zhou", 10, "depth", "open") + `}`,
		`{"op":"describe"}`,
	} {
		if out := s.Call([]byte(req)); bytes.Contains(out, []byte(`"error"`)) {
			t.Fatalf("%.80s: %s", req, out)
		}
	}
	// The hidden changes alone: the same snapshot.
	if out := s.Call([]byte(`{"op":"observe","state":` + hidden + `}`)); !bytes.Contains(out, []byte(`"snapshot":"s1","changed":false`)) {
		t.Errorf("a change the agent cannot see makes a new snapshot: %s", out)
	}
	// From the first state, in a new session, the hidden changes and one
	// the agent sees.
	s = session.New()
	s.Call([]byte(`{"op":"load","key":"hidden-change-key-01","manifest":` + m + `}`))
	s.Call([]byte(`{"op":"observe","state":` + state("ghp_VMWXocEBilPB6hyWTFeudNmbuRTZ7CKPFaM6", "A", "Sup3rS3cret", "lena.zhou", 10, "depth", "open") + `}`))
	if out := s.Call([]byte(`{"op":"observe","state":` + state("ghp_2xMzwGU1Wc8gGNYzFDTmaIzgyqA3NioBegpH", "B", "0therS3cret", "lisa.secret", 42, "cycle", "shipped") + `}`)); !bytes.Contains(out, []byte(`"snapshot":"s2","changed":true`)) {
		t.Fatalf("a visible change makes no new snapshot: %s", out)
	}
	after := decode(t, s.Call([]byte(`{"op":"after","since":"s1"}`)))
	recs := after["records"].(map[string]any)
	if n := num(t, recs["changedTotal"]); n != 1 {
		t.Errorf("after lists %d changed records, want C alone", n)
	} else if c := recs["changed"].([]any)[0].(map[string]any); c["id"] != "C" || len(c["fields"].(map[string]any)) != 1 {
		t.Errorf("after lists %v, want C's status alone", c)
	}
	if st := after["state"].(map[string]any); len(st) != 0 {
		t.Errorf("after lists state %v, whose projections did not change", st)
	}
	if r := after["redescribe"].(map[string]any); r["required"] != false {
		t.Errorf("after asks to redescribe: %v", r["reasons"])
	}
	for _, id := range []string{"A", "B"} {
		out := s.Call([]byte(`{"op":"prepare","capability":"order.open","record":"` + id + `","snapshot":"s1"}`))
		if bytes.Contains(out, []byte("stale_snapshot")) {
			t.Errorf("prepare %s since s1: %s: a hidden change shows as a stale snapshot", id, out)
		}
	}
	// A change the agent can see still counts.
	if out := s.Call([]byte(`{"op":"prepare","capability":"order.open","record":"C","snapshot":"s1"}`)); !bytes.Contains(out, []byte("stale_snapshot")) {
		t.Errorf("a visible change: %s", out)
	}
}
