package session_test

import (
	"strings"
	"testing"
)

// maxFieldChars (and a field's maxChars) bounds "characters of one
// string (field, state, page, feedback); a composite value by its
// encoding" (docs/protocol.md#bounds). A plain number is neither: it is
// copied as written, however long, into record fields, state and page
// params, with no truncated report.
func TestRedteamLongNumberIgnoresMaxChars(t *testing.T) {
	long := "1" + strings.Repeat("0", 3000) // 3,001 characters
	m := `{"pinhole":1,"limits":{"maxFieldChars":64},
	  "page":{"route":"/r","params":{"from":"/q","allow":["n"]}},
	  "regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/items","id":"/id",
	     "fields":{"total":{"from":"/total","maxChars":10}}}],
	  "state":{"count":"/count"}}`
	st := `{"r":"/x","q":{"n":` + long + `},"count":` + long + `,"items":[{"id":"a","total":` + long + `}]}`
	s := rtSession(t, m, st)
	out := rtMust(t, s, `{"op":"describe"}`)
	if n := strings.Count(out, long); n > 0 {
		t.Errorf("a %d-character number is shown whole %d times past maxFieldChars 64 / maxChars 10 (no truncated report: %v)",
			len(long), n, strings.Contains(out, "truncated"))
	}
}

// A number long enough makes every describe fail: the page and state,
// which do not depend on the request, exceed maxResponseBytes, although
// maxFieldChars would have cut a string of the same length.
func TestRedteamLongNumberInStateBreaksDescribe(t *testing.T) {
	long := "9" + strings.Repeat("9", 70000)
	m := `{"pinhole":1,"regions":[{"id":"main"}],"state":{"count":"/count"}}`
	s := rtSession(t, m, `{"count":`+long+`}`)
	out := rtCall(t, s, `{"op":"describe"}`)
	if strings.HasPrefix(out, `{"error"`) {
		t.Errorf("a store number in one declared state key makes describe fail: %.200s", out)
	}
	// The same length as a string is cut and described.
	s2 := rtSession(t, m, `{"count":"`+long+`"}`)
	if out := rtCall(t, s2, `{"op":"describe"}`); strings.HasPrefix(out, `{"error"`) {
		t.Fatalf("string case failed too: %.200s", out)
	}
}
