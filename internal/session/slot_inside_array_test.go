package session_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A token slot is a property reached through "properties" only: the load
// refuses a slot inside "items", so that a slot never sits in an array
// (SECURITY.md, tokens; TokenBudget counts on slots not repeating). The
// resolver matches a slot by its pointer tokens alone, and an array index
// is the same token as a property named with digits: an input that puts
// an array where the schema declares an object (no "type" on it, which
// the subset allows) has the token resolved inside the array, next to
// items of the agent's own, and the handler gets a shape the manifest
// never declared.
func TestSlotNeverResolvesInsideAnArray(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/people","id":"/id","fields":{"phone":{"from":"/phone","expose":"alias"}}}],
	  "capabilities":[{"name":"call","description":"Call","scope":"record","region":"main",
	    "input":{"type":"object","properties":{"to":{"properties":{"0":{"type":"string","x-pinhole-token":{"field":"phone"}}}}}}}]}`
	s := sessionWith(t, m, `{"people":[{"id":"p1","phone":"+44 20 7946 1000"}]}`)
	var d struct {
		Context struct {
			Records []struct {
				Fields map[string]string `json:"fields"`
			} `json:"records"`
		} `json:"context"`
	}
	if err := json.Unmarshal([]byte(mustRaw(t, s, `{"op":"describe"}`)), &d); err != nil {
		t.Fatal(err)
	}
	tok := d.Context.Records[0].Fields["phone"]
	// As declared: the slot is member "0" of the object "to".
	mustRaw(t, s, `{"op":"prepare","capability":"call","record":"p1","input":{"to":{"0":"`+tok+`"}}}`)
	// The token as an array item, next to the agent's own items.
	for _, in := range []string{`{"to":["` + tok + `"]}`, `{"to":["` + tok + `","+1 555 0100","anything"]}`} {
		out := rawCall(t, s, `{"op":"prepare","capability":"call","record":"p1","input":`+in+`}`)
		if strings.Contains(out, "7946 1000") {
			t.Errorf("a token inside an array was resolved for the handler, in an undeclared shape: %s -> %s", in, out)
		}
	}
}
