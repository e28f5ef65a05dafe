package session_test

import (
	"strings"
	"testing"
)

// after and stale_snapshot compare what the agent sees, so a hidden value
// that changed behind its mask, behind "[redacted]" or past the truncation
// is no change (TestHiddenChangesDoNotShow). The snapshot id is held to
// the same rule: the agent reads it in every describe (and the extension
// channel pushes it to every port as it happens), so a new id for such a
// change would tell the agent that a value it cannot see changed.
func TestSnapshotIDKeptOnHiddenChange(t *testing.T) {
	m := `{"pinhole":1,"limits":{"maxFieldChars":16},"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/orders","id":"/id",
	    "fields":{"card":{"from":"/card","expose":"mask"},"note":{"from":"/note"}}}],
	  "state":{"apiKey":"/apiKey"}}`
	for _, c := range []struct{ name, before, after string }{
		{"masked", `{"orders":[{"id":"o1","card":"4111 1111 1111 4242","note":"n"}]}`,
			`{"orders":[{"id":"o1","card":"5500 0000 0000 4242","note":"n"}]}`},
		{"redacted", `{"orders":[{"id":"o1","note":"n"}],"apiKey":"ghp_R8kQ2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"}`,
			`{"orders":[{"id":"o1","note":"n"}],"apiKey":"ghp_Zz1Q2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"}`},
		{"past the truncation", `{"orders":[{"id":"o1","note":"Your PIN is now 1234, keep it"}]}`,
			`{"orders":[{"id":"o1","note":"Your PIN is now 9876, keep it"}]}`},
	} {
		s := sessionWith(t, m, c.before)
		d1 := mustRaw(t, s, `{"op":"describe"}`)
		mustRaw(t, s, `{"op":"observe","state":`+c.after+`}`)
		d2 := mustRaw(t, s, `{"op":"describe"}`)
		strip := func(d string) string { return d[strings.Index(d, `"limits"`):] }
		if strip(d1) != strip(d2) {
			t.Fatalf("%s: the contexts differ beyond the snapshot: %s / %s", c.name, d1, d2)
		}
		if d1 != d2 {
			t.Errorf("%s: a change the context hides gives a new snapshot id: %s / %s", c.name, d1[:20], d2[:20])
		}
	}
}
