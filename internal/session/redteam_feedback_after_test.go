package session_test

import (
	"strings"
	"testing"
)

// docs/protocol.md#after: "Changed means changed as the agent sees it: ...
// a string's tail past maxFieldChars that changed while its length stayed
// the same, or a value behind [redacted] that changed is not listed".
// Feedback is compared by its raw text instead, so a toast whose secret
// changed behind "[redacted]" (or whose tail past the cut changed) comes
// back in the after as a new item the agent cannot tell from the old one:
// a one-bit oracle on hidden text, and a duplicate the context never had.
func TestRedteamFeedbackChangedBehindRedactionIsNew(t *testing.T) {
	m := `{"pinhole":1,"limits":{"maxFieldChars":16},"regions":[{"id":"main"}],
	  "feedback":{"from":"/toasts","text":"/t"}}`
	for _, c := range []struct{ name, before, after string }{
		{"redacted", "ghp_R8kQ2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i", "ghp_Zz1Q2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"},
		{"truncated", "Your PIN is now 1234, keep it", "Your PIN is now 9876, keep it"},
	} {
		s := rtSession(t, m, `{"toasts":[{"t":"`+c.before+`"}]}`)
		d1 := rtMust(t, s, `{"op":"describe"}`)
		rtMust(t, s, `{"op":"observe","state":{"toasts":[{"t":"`+c.after+`"}]}}`)
		d2 := rtMust(t, s, `{"op":"describe"}`)
		fb := func(d string) string { return d[strings.Index(d, `"feedback":`):] }
		if fb(d1) != fb(d2) {
			t.Fatalf("%s: the describes differ: %s / %s", c.name, fb(d1), fb(d2))
		}
		after := rtMust(t, s, `{"op":"after","since":"s1"}`)
		if !strings.Contains(after, `"feedbackTotal":0`) {
			t.Errorf("%s: feedback that shows the same in both describes is new in the after: %s", c.name, after)
		}
	}
}
