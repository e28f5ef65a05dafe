package session_test

import (
	"strings"
	"testing"
)

// A settings entry often carries both a label and the setting's key:
// {"name": "Production database", "key": "DB_PASSWORD", "value": "…"}.
// The entry is judged as its name/value pair written out
// (TestCompositeNameValuePairJudgedAsText); which of "name" and "key"
// comes first must not decide whether the secret-named one is read.
func TestCompositeNameKeyValueEntryJudgedByTheSecretName(t *testing.T) {
	const secret = "Tr0ub4dor&3xyz"
	m := `{"pinhole":1,"regions":[{"id":"main"}],"state":{"env":"/env"}}`
	for _, entry := range []string{
		`{"key":"DB_PASSWORD","name":"Production database","value":"` + secret + `"}`,
		`{"name":"Production database","key":"DB_PASSWORD","value":"` + secret + `"}`,
	} {
		s := sessionWith(t, m, `{"env":[`+entry+`]}`)
		if d := mustRaw(t, s, `{"op":"describe"}`); strings.Contains(d, secret) {
			t.Errorf("%s: the value of the secret-named setting shows in plain: %s", entry, d)
		}
	}
}
