package session_test

import (
	"strings"
	"testing"
)

// docs/protocol.md#after: changed means changed as the agent sees it. A
// toast whose secret changed behind "[redacted]", or whose tail past the
// cut changed, is not a new feedback item in the after: compared by its
// raw text, it would come back as an item the agent cannot tell from the
// old one, a one-bit oracle on hidden text.
func TestFeedbackChangedOutOfSightIsNotNew(t *testing.T) {
	m := `{"pinhole":1,"limits":{"maxFieldChars":16},"regions":[{"id":"main"}],
	  "feedback":{"from":"/toasts","text":"/t"}}`
	for _, c := range []struct{ name, before, after string }{
		{"redacted", "ghp_R8kQ2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i", "ghp_Zz1Q2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"},
		{"truncated", "Your PIN is now 1234, keep it", "Your PIN is now 9876, keep it"},
	} {
		s := sessionWith(t, m, `{"toasts":[{"t":"`+c.before+`"}]}`)
		d1 := mustRaw(t, s, `{"op":"describe"}`)
		mustRaw(t, s, `{"op":"observe","state":{"toasts":[{"t":"`+c.after+`"}]}}`)
		d2 := mustRaw(t, s, `{"op":"describe"}`)
		fb := func(d string) string { return d[strings.Index(d, `"feedback":`):] }
		if fb(d1) != fb(d2) {
			t.Fatalf("%s: the describes differ: %s / %s", c.name, fb(d1), fb(d2))
		}
		after := mustRaw(t, s, `{"op":"after","since":"s1"}`)
		if !strings.Contains(after, `"feedbackTotal":0`) {
			t.Errorf("%s: feedback that shows the same in both describes is new in the after: %s", c.name, after)
		}
	}
}
