package session_test

import (
	"strings"
	"testing"
)

// A key cut by a C0 control (NUL, ESC, vertical tab, form feed), a
// replacement character (a lone surrogate through the bridge) or a
// combining mark is caught like one cut by a line break: otherwise it would
// reach the agent with one escape in the middle (`ghp_…\u000b…`), which
// any reader joins back.
func TestControlCharacterCutsNoKey(t *testing.T) {
	key := "ghp_R8kQ2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/items","id":"/id","fields":{"note":{"from":"/note"}}}]}`
	for _, sep := range []string{`\n`, `\u0000`, `\u001b`, `\u000b`, `\f`, `\ufffd`, `\u0301`} {
		st := `{"items":[{"id":"a","note":"` + key[:20] + sep + key[20:] + `"}]}`
		s := sessionWith(t, m, st)
		out := mustRaw(t, s, `{"op":"describe"}`)
		if strings.Contains(out, key[:20]) && strings.Contains(out, key[20:]) {
			t.Errorf("a GitHub token cut by %s reaches the agent: %s", sep, out[strings.Index(out, `"note":`):][:70])
		}
	}
}
