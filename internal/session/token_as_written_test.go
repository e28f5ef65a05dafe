package session_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// recordField returns the raw projection of field name of record id in a
// describe answer.
func recordField(t *testing.T, describe, id, name string) string {
	t.Helper()
	var d struct {
		Context struct {
			Records []struct {
				ID     string                     `json:"id"`
				Fields map[string]json.RawMessage `json:"fields"`
			} `json:"records"`
		} `json:"context"`
	}
	if err := json.Unmarshal([]byte(describe), &d); err != nil {
		t.Fatalf("%v: %s", err, describe)
	}
	for _, r := range d.Context.Records {
		if r.ID == id {
			return string(r.Fields[name])
		}
	}
	t.Fatalf("no record %s in %s", id, describe)
	return ""
}

// tokenAsWrittenManifest has a placeholder field and a record-scope
// capability with a token slot for it.
const tokenAsWrittenManifest = `{"pinhole":1,"regions":[{"id":"main"}],
  "collections":[{"region":"main","from":"/accts","id":"/id","fields":{"ref":{"from":"/ref","expose":"placeholder"}}}],
  "capabilities":[{"name":"pay","description":"Pay","scope":"record","region":"main",
    "input":{"type":"object","properties":{"ref":{"x-pinhole-token":{"field":"ref"}}},"required":["ref"]}}]}`

// A token stands for a value as written. Record A's token, given for
// record B whose value equals A's but is written otherwise (1 for 1.0,
// members in another order), must not resolve: B has a token of its own,
// and a resolution would tell the agent an equality that the two tokens
// it was shown hide. The answer is the one for a B whose value differs.
func TestTokenResolvesOnlyTheValueAsWritten(t *testing.T) {
	prepare := func(b string) string {
		s := sessionWith(t, tokenAsWrittenManifest, `{"accts":[{"id":"A","ref":{"n":1.0,"k":"x"}},{"id":"B","ref":`+b+`}]}`)
		d := mustRaw(t, s, `{"op":"describe"}`)
		ta, tb := recordField(t, d, "A", "ref"), recordField(t, d, "B", "ref")
		if ta == tb {
			t.Fatalf("A and B show the same token %s", ta)
		}
		return rawCall(t, s, `{"op":"prepare","capability":"pay","record":"B","input":{"ref":`+ta+`}}`)
	}
	equal, differs := prepare(`{"k":"x","n":1}`), prepare(`{"k":"x","n":2}`)
	if !strings.HasPrefix(equal, `{"error":{"code":"invalid_input"`) {
		t.Errorf("A's token for B, whose value equals A's written otherwise: %s, want invalid_input", equal)
	}
	if equal != differs {
		t.Errorf("the answers tell B's hidden value from another:\n%s\n%s", equal, differs)
	}
	// The value as written resolves.
	s := sessionWith(t, tokenAsWrittenManifest, `{"accts":[{"id":"A","ref":{"n":1.0,"k":"x"}},{"id":"B","ref":{"n":1.0,"k":"x"}}]}`)
	d := mustRaw(t, s, `{"op":"describe"}`)
	mustRaw(t, s, `{"op":"prepare","capability":"pay","record":"B","input":{"ref":`+recordField(t, d, "A", "ref")+`}}`)
}

// A protected value rewritten (1.0 becomes 1) while the state changes
// elsewhere shows a new token: the after lists the record as changed, with
// the token a describe now shows. (A state equal to the one held, as Equal
// sees it, keeps the snapshot and its tokens as they were.)
func TestRewrittenValueShowsAsChanged(t *testing.T) {
	s := sessionWith(t, tokenAsWrittenManifest, `{"accts":[{"id":"A","ref":1.0},{"id":"B","ref":5}]}`)
	d1 := mustRaw(t, s, `{"op":"describe"}`)
	mustRaw(t, s, `{"op":"observe","patch":[{"op":"replace","path":"/accts/0/ref","value":1},{"op":"replace","path":"/accts/1/ref","value":6}]}`)
	d2 := mustRaw(t, s, `{"op":"describe"}`)
	before, now := recordField(t, d1, "A", "ref"), recordField(t, d2, "A", "ref")
	if before == now {
		t.Fatalf("1.0 and 1 show the same token %s", now)
	}
	after := mustRaw(t, s, `{"op":"after","since":"s1"}`)
	if !strings.Contains(after, `{"id":"A","region":"main","fields":{"ref":`+now+`}}`) {
		t.Errorf("after since s1 does not list A's new token %s: %s", now, after)
	}
}
