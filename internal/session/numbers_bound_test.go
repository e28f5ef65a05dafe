package session_test

import (
	"strings"
	"testing"
)

// maxFieldChars (and a field's maxChars) bounds a number by its literal,
// as a composite by its encoding (docs/protocol.md#bounds): a number
// written longer than the limit (the store's own JSON can hold one of any
// length) is null in record fields, state and page params, and said to be
// truncated.
func TestLongNumberIsTruncated(t *testing.T) {
	long := "1" + strings.Repeat("0", 3000) // 3,001 characters
	m := `{"pinhole":1,"limits":{"maxFieldChars":64},
	  "page":{"route":"/r","params":{"from":"/q","allow":["n"]}},
	  "regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/items","id":"/id",
	     "fields":{"total":{"from":"/total","maxChars":10}}}],
	  "state":{"count":"/count"}}`
	st := `{"r":"/x","q":{"n":` + long + `},"count":` + long + `,"items":[{"id":"a","total":` + long + `}]}`
	s := sessionWith(t, m, st)
	out := mustRaw(t, s, `{"op":"describe"}`)
	if n := strings.Count(out, long); n > 0 {
		t.Errorf("a %d-character number is shown whole %d times past maxFieldChars 64 / maxChars 10 (no truncated report: %v)",
			len(long), n, strings.Contains(out, "truncated"))
	}
}

// A number too long for maxResponseBytes in a declared state key does not
// make every describe fail: it is cut by maxFieldChars, as a string of the
// same length is.
func TestLongNumberInStateDescribes(t *testing.T) {
	long := "9" + strings.Repeat("9", 70000)
	m := `{"pinhole":1,"regions":[{"id":"main"}],"state":{"count":"/count"}}`
	s := sessionWith(t, m, `{"count":`+long+`}`)
	out := rawCall(t, s, `{"op":"describe"}`)
	if strings.HasPrefix(out, `{"error"`) {
		t.Errorf("a store number in one declared state key makes describe fail: %.200s", out)
	}
	// The same length as a string is cut and described.
	s2 := sessionWith(t, m, `{"count":"`+long+`"}`)
	if out := rawCall(t, s2, `{"op":"describe"}`); strings.HasPrefix(out, `{"error"`) {
		t.Fatalf("string case failed too: %.200s", out)
	}
}
