package session_test

import (
	"strings"
	"testing"
)

// protocol.md: "A repeated describe of an unchanged snapshot answers the
// same bytes", and observe keeps the id only for a change the context
// hides. A change the context shows but an after does not list (an allowed
// page param, a feedback item that went away, an unavailable reason that
// changed while the capability stayed unavailable, a state key that went
// from null, which describe lists, to absent, which it leaves out, or
// back, a region that became active) must give a new id.
func TestSnapshotIDNewOnVisibleChangeOutsideAfter(t *testing.T) {
	m := `{"pinhole":1,"page":{"route":"/r","params":{"from":"/q","allow":["status"]}},"regions":[{"id":"main"},{"id":"panel","activeWhen":{"path":"/open","eq":true}}],
	  "collections":[{"region":"main","from":"/orders","id":"/id","fields":{"note":{"from":"/note"}}}],
	  "feedback":{"from":"/toasts","text":"/message"},"state":{"filter":"/filter"},
	  "capabilities":[{"name":"export","description":"Export","scope":"page","region":"main",
	    "unavailable":[{"when":{"path":"/role","eq":"guest"},"reason":"Guests cannot export"},
	                   {"when":{"path":"/role","ne":"manager"},"reason":"Only managers can export"}]}]}`
	st := func(status, toasts, role, more string) string {
		return `{"r":"/orders","q":{"status":"` + status + `"},"orders":[{"id":"o1","note":"n"}],"toasts":` + toasts + `,"role":"` + role + `"` + more + `}`
	}
	const null = `,"filter":null`
	for _, c := range []struct{ name, before, after string }{
		{"page param", st("open", `[]`, "manager", ""), st("closed", `[]`, "manager", "")},
		{"feedback item gone", st("open", `[{"message":"Saved"}]`, "manager", ""), st("open", `[]`, "manager", "")},
		{"unavailable reason", st("open", `[]`, "guest", ""), st("open", `[]`, "clerk", "")},
		{"state key null to absent", st("open", `[]`, "manager", null), st("open", `[]`, "manager", "")},
		{"state key absent to null", st("open", `[]`, "manager", ""), st("open", `[]`, "manager", null)},
		{"region active", st("open", `[]`, "manager", ""), st("open", `[]`, "manager", `,"open":true`)},
	} {
		s := sessionWith(t, m, c.before)
		d1 := mustRaw(t, s, `{"op":"describe"}`)
		mustRaw(t, s, `{"op":"observe","state":`+c.after+`}`)
		d2 := mustRaw(t, s, `{"op":"describe"}`)
		strip := func(d string) string { return d[strings.Index(d, `"limits"`):] }
		if strip(d1) == strip(d2) {
			t.Fatalf("%s: the change does not show in the context: %s", c.name, d2)
		}
		if d1[:20] == d2[:20] {
			t.Errorf("%s: the context changed under the same snapshot id: %s / %s", c.name, d1, d2)
		}
	}
}
