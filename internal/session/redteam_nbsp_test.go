package session_test

import (
	"strings"
	"testing"
)

// The credential net folds the ideographic space (U+3000) to a blank, but
// not the no-break space (U+00A0) nor the other Unicode spaces (U+202F,
// U+2009, U+2002, U+205F) that rich-text editors, web pages and French
// typography put between a name and its value. "Bearer abc…" is caught;
// "Bearer<NBSP>abc…" is shown to the agent whole, the token readable as
// it is. Not split, not obfuscated: an ordinary paste.
func TestRedteamNoBreakSpaceHidesNamedSecret(t *testing.T) {
	secrets := []string{
		"Authorization: Bearer%sabcDEF123ghiJKL456mnoPQR789stu",
		"password:%sTr0ub4dor&3xyz",
		"api_key=%sfeluqmr7x2k9vbq3zt8w",
	}
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/items","id":"/id","fields":{"note":{"from":"/note","content":"user"}}}]}`
	for _, tmpl := range secrets {
		for _, sep := range []string{" ", "\u00a0", "\u202f", "\u2009", "\u2002", "\u205f"} {
			note := strings.Replace(tmpl, "%s", sep, 1)
			st := `{"items":[{"id":"a","note":"` + note + `"}]}`
			s := rtSession(t, m, st)
			out := rtMust(t, s, `{"op":"describe"}`)
			value := tmpl[strings.Index(tmpl, "%s")+2:]
			if strings.Contains(out, value) {
				t.Errorf("separator %U: %q reaches the agent in plain", []rune(sep)[0], note)
			}
		}
	}
}
