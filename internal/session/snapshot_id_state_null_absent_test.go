package session_test

import (
	"strings"
	"testing"
)

// protocol.md: a repeated describe of an unchanged snapshot answers the
// same bytes, and observe keeps the id only for a change the context
// hides. A state key whose value went from null to absent (or back)
// shows: describe lists "filter": null in one and leaves the key out in
// the other. Under the same snapshot id the agent would see two different
// contexts.
func TestSnapshotIDNewWhenStateKeyGoesFromNullToAbsent(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/orders","id":"/id","fields":{"note":{"from":"/note"}}}],
	  "state":{"filter":"/filter"}}`
	for _, c := range []struct{ name, before, after string }{
		{"null to absent", `{"orders":[{"id":"o1","note":"n"}],"filter":null}`, `{"orders":[{"id":"o1","note":"n"}]}`},
		{"absent to null", `{"orders":[{"id":"o1","note":"n"}]}`, `{"orders":[{"id":"o1","note":"n"}],"filter":null}`},
	} {
		s := sessionWith(t, m, c.before)
		d1 := mustRaw(t, s, `{"op":"describe"}`)
		mustRaw(t, s, `{"op":"observe","state":`+c.after+`}`)
		d2 := mustRaw(t, s, `{"op":"describe"}`)
		strip := func(d string) string { return d[strings.Index(d, `"limits"`):] }
		if strip(d1) == strip(d2) {
			continue // the context shows no difference: the same id is right
		}
		if d1[:20] == d2[:20] {
			t.Errorf("%s: the context changed under the same snapshot id:\n%s\n%s", c.name, d1, d2)
		}
	}
}
