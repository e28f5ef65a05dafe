package session_test

// SECURITY.md §3 "Credentials never leave the module" and §4 "Errors and
// audit events carry no values": the credential corpus in every position a
// string can reach, and in every place a request can carry text.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/session"
)

// TestCredentialCorpusEverywhere puts every secret of the corpus in every
// position at once and checks that none reaches the output: record fields
// are "[redacted]" and listed in redacted, feedback is flagged, a secret id
// is not referenceable, and errors about secrets never quote them.
func TestCredentialCorpusEverywhere(t *testing.T) {
	secrets := secretCorpus(t)
	cs := secretForms(secrets)
	s := session.New()
	check := func(what string, req any, max int) map[string]any {
		t.Helper()
		out := s.Call(mustJSON(req))
		checkResponse(t, what, out, cs, max)
		return decode(t, out)
	}
	if r := check("load", map[string]any{"op": "load", "manifest": positionsManifest, "key": "credential-test-key-01"}, 0); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	for i, e := range secrets {
		what := fmt.Sprintf("%s (%s)", e.Kind, e.Provider)
		state := positionsState(e.Value)
		r := check(what+": observe", map[string]any{"op": "observe", "state": state}, 0)
		if num(t, r["recordsTotal"]) != 3 || num(t, r["skipped"]) != 1 {
			t.Fatalf("%s: observe %v: want 3 records, the secret id skipped", what, r)
		}
		r = check(what+": describe", map[string]any{"op": "describe"}, 1<<20)
		ctx := r["context"].(map[string]any)
		if ids := ctx["recordIds"].([]any); len(ids) != 2 || ids[0] != "SO-1" || ids[1] != "SO-2" {
			t.Fatalf("%s: recordIds %v", what, ids)
		}
		rec := ctx["records"].([]any)[0].(map[string]any)
		fields := rec["fields"].(map[string]any)
		for _, f := range []string{"name", "note", "meta"} {
			if fields[f] != expose.Redacted {
				t.Fatalf("%s: field %s = %v, want %q", what, f, fields[f], expose.Redacted)
			}
			if !oneOf(f, toStrings(asList(rec["redacted"]))...) {
				t.Fatalf("%s: field %s not listed in redacted %v", what, f, rec["redacted"])
			}
		}
		if rec2 := ctx["records"].([]any)[1].(map[string]any); rec2["fields"].(map[string]any)["meta"] != expose.Redacted {
			t.Fatalf("%s: a secret as an object key was not redacted: %v", what, rec2)
		}
		fb := ctx["feedback"].([]any)[0].(map[string]any)
		if fb["text"] != expose.Redacted || fb["redacted"] != true {
			t.Fatalf("%s: feedback %v", what, fb)
		}
		if i == len(secrets)-1 {
			a := check("audit", map[string]any{"op": "audit"}, 0)
			if len(asList(a["events"])) == 0 {
				t.Fatal("no audit events")
			}
		}
	}
	fmt.Printf("credential corpus: %d secrets x 9 positions (field, user field, composite value, object key, id, state, feedback, page title, page param): none in any output\n", len(secrets))
}

// TestErrorsNeverQuoteSecrets sends every secret of the corpus where a
// request can carry text (unknown parameters, ids, op names, keys, patch
// pointers and values, prepare input, after snapshots): no error may
// quote it, in its message or its param.
func TestErrorsNeverQuoteSecrets(t *testing.T) {
	secrets := secretCorpus(t)
	cs := secretForms(secrets)
	positions := []struct {
		name string
		req  func(secret string) map[string]any
	}{
		{"record selection", func(x string) map[string]any { return map[string]any{"op": "describe", "record": []any{x}} }},
		{"unknown describe parameter", func(x string) map[string]any { return map[string]any{"op": "describe", x: 1} }},
		{"op name", func(x string) map[string]any { return map[string]any{"op": x} }},
		{"unknown load parameter", func(x string) map[string]any {
			return map[string]any{"op": "load", "manifest": positionsManifest, x: true}
		}},
		{"unknown observe parameter", func(x string) map[string]any {
			return map[string]any{"op": "observe", "state": positionsState("x"), x: true}
		}},
		{"session key", func(x string) map[string]any {
			return map[string]any{"op": "load", "manifest": map[string]any{"pinhole": 2}, "key": x}
		}},
		{"patch pointer", func(x string) map[string]any {
			return map[string]any{"op": "observe", "patch": []any{map[string]any{"op": "remove", "path": "/orders/0/" + x}}}
		}},
		{"patch test value", func(x string) map[string]any {
			return map[string]any{"op": "observe", "patch": []any{map[string]any{"op": "test", "path": "/orders/0/name", "value": x + "x"}}}
		}},
		{"prepare input", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": "SO-9", "input": map[string]any{"x": x}}
		}},
		{"prepare input key", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": "SO-1", "input": map[string]any{x: 1}}
		}},
		{"prepare placeholder token", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": "SO-1", "input": map[string]any{"p": map[string]any{"$placeholder": x}}}
		}},
		{"prepare capability", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": x, "record": "SO-1", "input": map[string]any{}}
		}},
		{"prepare record", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": x, "input": map[string]any{}}
		}},
		{"after snapshot", func(x string) map[string]any { return map[string]any{"op": "after", "since": x} }},
		{"manifest region id", func(x string) map[string]any {
			return map[string]any{"op": "load", "key": "credential-test-key-01", "manifest": map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "a", "parent": x}}}}
		}},
	}
	for _, p := range positions {
		t.Run(p.name, func(t *testing.T) {
			s := session.New()
			s.Call(mustJSON(map[string]any{"op": "load", "manifest": positionsManifest, "key": "credential-test-key-01"}))
			s.Call(mustJSON(map[string]any{"op": "observe", "state": positionsState("plain")}))
			for _, e := range secrets {
				out := s.Call(mustJSON(p.req(e.Value)))
				checkResponse(t, e.Kind+" ("+e.Provider+")", out, cs, 0)
			}
		})
	}
}

type secretEntry struct {
	Kind, Provider, Value string
}

func secretCorpus(t testing.TB) []secretEntry {
	f, err := os.Open("../../testdata/credentials/secrets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []secretEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e secretEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if len(out) < 50 {
		t.Fatalf("credential corpus has %d entries", len(out))
	}
	return out
}

// secretForms makes a canary set of the corpus: each secret and its
// distinctive tail (so a cut prefix does not pass for redaction).
func secretForms(secrets []secretEntry) *canaries {
	cs := newCanaries(rand.New(rand.NewPCG(1, 2)))
	for _, e := range secrets {
		cs.forms[e.Value] = e.Value
		cs.heads[e.Value[:4]] = append(cs.heads[e.Value[:4]], e.Value)
		// The distinctive tail of the secret (its last 16 bytes) must not
		// survive either, as it would if only a prefix were cut.
		if len(e.Value) >= 24 {
			tail := strings.TrimSpace(e.Value[len(e.Value)-16:])
			if len(tail) >= 8 && !strings.Contains(tail, "-----") && !strings.Contains(tail, "GMT") && !strings.Contains(tail, "Secure") {
				cs.forms[tail] = e.Value
				cs.heads[tail[:4]] = append(cs.heads[tail[:4]], tail)
			}
		}
	}
	return cs
}
