package session_test

import (
	"strings"
	"testing"
)

// The no-break space (U+00A0) and the other Unicode spaces (U+202F, U+2009,
// U+2002, U+205F) that rich-text editors, web pages and French typography
// put between a name and its value read as a blank to the credential net:
// "Bearer<NBSP>abc…" is caught as "Bearer abc…" is. Not split, not
// obfuscated: an ordinary paste.
func TestUnicodeSpaceAfterSecretName(t *testing.T) {
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
			s := sessionWith(t, m, st)
			out := mustRaw(t, s, `{"op":"describe"}`)
			value := tmpl[strings.Index(tmpl, "%s")+2:]
			if strings.Contains(out, value) {
				t.Errorf("separator %U: %q reaches the agent in plain", []rune(sep)[0], note)
			}
		}
	}
}
