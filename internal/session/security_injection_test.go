package session_test

// SECURITY.md §5 "Data is not instruction": the prompt-injection corpus
// in every position, and the handling of each class of invisible and
// control character.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

// injectionManifest is positionsManifest with app-authored capabilities
// whose text the response must repeat exactly.
func injectionManifest() map[string]any {
	m := map[string]any{}
	for k, v := range positionsManifest {
		m[k] = v
	}
	m["limits"] = map[string]any{"maxFieldChars": 512, "maxResponseBytes": 1 << 20}
	m["capabilities"] = []any{
		map[string]any{"name": "order.ship", "description": "Ship one order", "scope": "record", "region": "orders",
			"unavailable": []any{map[string]any{"when": map[string]any{"field": "/name", "ne": "ok"}, "reason": "Only orders named ok ship"}}},
		map[string]any{"name": "orders.export", "description": "Export the list as CSV", "scope": "page", "region": "orders",
			"unavailable": []any{map[string]any{"when": map[string]any{"path": "/ui/filter", "exists": true}, "reason": "Clear the filter first"}}},
	}
	return m
}

// TestInjectionCorpus puts every entry of testdata/injection in record
// fields, user-content fields, ids, state, feedback, the page title and a
// page param. The response's structure, capability names, descriptions and
// reasons stay exactly the manifest's; injected text never becomes a key;
// user content is flagged; invisible characters are stripped, control
// characters escaped; ids with control or invisible characters are not
// referenceable; long text is cut and says so.
func TestInjectionCorpus(t *testing.T) {
	inj := injectionCorpus(t)
	s := session.New()
	if r := decode(t, s.Call(mustJSON(map[string]any{"op": "load", "manifest": injectionManifest(), "key": "injection-key-000001"}))); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	wantCaps := `[{"name":"order.ship","description":"Ship one order","scope":"record","region":"orders","input":{"type":"object","properties":{},"additionalProperties":false}},{"name":"orders.export","description":"Export the list as CSV","scope":"page","region":"orders","input":{"type":"object","properties":{},"additionalProperties":false}}]`
	for i, text := range inj {
		what := fmt.Sprintf("injection %d (%.40q)", i, text)
		state := map[string]any{
			"router": map[string]any{"path": "/orders", "title": text, "query": map[string]any{"q": text, text: "x"}},
			"ui":     map[string]any{"filter": text, "toasts": []any{map[string]any{"message": text}}},
			"orders": []any{
				map[string]any{"id": "SO-1", "name": text, "note": text, "meta": map[string]any{"k": text}, "email": text},
				map[string]any{"id": text, "name": "ok"},
				map[string]any{"id": "SO-2" + text, "name": "ok"},
			},
		}
		out := s.Call(mustJSON(map[string]any{"op": "observe", "state": state}))
		checkResponse(t, what+": observe", out, nil, 0)
		out = s.Call([]byte(`{"op":"describe"}`))
		checkResponse(t, what+": describe", out, nil, 1<<20)
		r := decode(t, out)
		var raw struct{ Capabilities json.RawMessage }
		if err := json.Unmarshal(out, &raw); err != nil {
			t.Fatal(err)
		}
		if caps := raw.Capabilities; string(caps) != wantCaps {
			t.Fatalf("%s: capabilities are not the manifest's:\n%s", what, caps)
		}
		ctx := r["context"].(map[string]any)
		checkKeys(t, what, r, "snapshot", "limits", "capabilities", "context")
		checkKeys(t, what+" context", ctx, "page", "regions", "records", "recordIds", "recordIdsTotal", "recordWindow",
			"recordsTotal", "duplicatesTotal", "cutTotal", "state", "stateTruncated", "stateCut", "feedback", "feedbackTotal", "unavailable", "unavailableTotal")
		checkKeys(t, what+" state", ctx["state"].(map[string]any), "filter")
		pg := ctx["page"].(map[string]any)
		checkKeys(t, what+" page", pg, "route", "title", "params", "truncated")
		checkKeys(t, what+" params", pg["params"].(map[string]any), "q")
		for _, u := range asList(ctx["unavailable"]) {
			um := u.(map[string]any)
			checkKeys(t, what+" unavailable", um, "capability", "record", "reason")
			if !oneOf(um["reason"], "Only orders named ok ship", "Clear the filter first") {
				t.Fatalf("%s: reason %v is not the manifest's", what, um["reason"])
			}
		}
		recs := ctx["records"].([]any)
		ids := toStrings(asList(ctx["recordIds"]))
		for _, id := range ids {
			if strings.ContainsAny(id, "\x00\x07\x1b\x7f\n\r\t") || strings.IndexFunc(id, isInvisible) >= 0 {
				t.Fatalf("%s: id %q with control or invisible characters is referenceable", what, id)
			}
		}
		rec := recs[0].(map[string]any)
		checkKeys(t, what+" record", rec, "id", "region", "fields", "truncated", "redacted", "cut", "userContent")
		checkKeys(t, what+" fields", rec["fields"].(map[string]any), "name", "note", "meta", "email")
		if uc := toStrings(asList(rec["userContent"])); len(uc) != 1 || uc[0] != "note" {
			t.Fatalf("%s: userContent %v, want [note]", what, uc)
		}
		if fb := ctx["feedback"].([]any); len(fb) == 1 {
			f := fb[0].(map[string]any)
			if f["source"] != "app" || f["level"] != "info" {
				t.Fatalf("%s: feedback provenance %v", what, f)
			}
		}
		if n := len([]rune(text)); n > 512 {
			cut, _ := rec["truncated"].(map[string]any)
			if cut == nil || num(t, cut["name"]) != n || num(t, cut["note"]) != n {
				t.Fatalf("%s: a %d-character field is not reported as cut: %v", what, n, cut)
			}
			if len([]rune(fmt.Sprint(rec["fields"].(map[string]any)["note"]))) > 512 {
				t.Fatalf("%s: a field exceeds maxFieldChars", what)
			}
		}
	}
}

// TestInvisibleAndControlCharacters pins the handling SECURITY.md §5 gives
// each class of character, in record fields, masked fields, state, feedback
// and page text: invisible formatting characters, DEL and the C1 controls
// are stripped; C0 control characters are escaped as \u00XX (never raw);
// line separators are escaped.
func TestInvisibleAndControlCharacters(t *testing.T) {
	s := session.New()
	s.Call(mustJSON(map[string]any{"op": "load", "manifest": positionsManifest, "key": "injection-key-000001"}))
	cases := []struct {
		name, in string
		want     []string // escaped text the output must hold
		idOK     bool     // an id holding the characters stays referenceable
	}{
		{"bidi override", "a\u202eb\u202cc", []string{`"abc"`}, false},
		{"bidi isolates", "a\u2066b\u2067c\u2068d\u2069", []string{`"abcd"`}, false},
		{"zero-width", "a\u200bb\u200cc\u200dd\u2060e\ufefff", []string{`"abcdef"`}, false},
		{"marks", "a\u200eb\u200fc", []string{`"abc"`}, false},
		{"arabic letter mark", "a\u061cb", []string{`"ab"`}, false},
		{"tag characters", "a\U000E0049\U000E0067b", []string{`"ab"`}, false},
		{"C0 controls", "a\x00b\x07c\x1bd", []string{`"a\u0000b\u0007c\u001bd"`}, false},
		{"newlines and tabs", "a\nb\rc\td", []string{`"a\nb\rc\td"`}, false},
		{"DEL and C1 controls", "a\x7fb\u0085c\u009bd", []string{`"abcd"`}, false},
		{"mongolian vowel separator and deprecated format", "a\u180eb\u206ac\u206fd", []string{`"abcd"`}, false},
		{"line separators", "a\u2028b\u2029c", []string{`"a\u2028b\u2029c"`}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := map[string]any{
				"router": map[string]any{"path": "/x", "title": c.in, "query": map[string]any{"q": c.in}},
				"ui":     map[string]any{"filter": c.in, "toasts": []any{map[string]any{"message": c.in}}},
				"orders": []any{map[string]any{"id": "SO-1", "name": c.in, "note": c.in, "email": strings.TrimPrefix(c.in, "a") + "@example.com"},
					map[string]any{"id": "SO-" + c.in, "name": "id with the characters"}},
			}
			s.Call(mustJSON(map[string]any{"op": "observe", "state": state}))
			out := s.Call([]byte(`{"op":"describe"}`))
			checkResponse(t, c.name, out, nil, 0)
			for _, w := range c.want {
				// Title, param, state, feedback, two fields: six places.
				if n := strings.Count(string(out), w); n < 6 {
					t.Fatalf("output holds %s %d times, want 6 (title, param, state, feedback, name, note): %s", w, n, out)
				}
			}
			if r := decode(t, out); !c.idOK && num(t, r["context"].(map[string]any)["recordIdsTotal"]) != 1 {
				t.Fatalf("an id with invisible or control characters is referenceable: %s", out)
			}
		})
	}
}
