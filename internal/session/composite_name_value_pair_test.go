package session_test

import (
	"strings"
	"testing"
)

// The net catches {"name": "DB_PASSWORD", "value": "…"} written as JSON
// text (a Kubernetes env entry, an integration's settings list). The same
// pair held by the store as an object must be judged as the text is
// (TestCompositeMemberJudgedWithItsName): its value must not show in plain.
func TestCompositeNameValuePairJudgedAsText(t *testing.T) {
	const secret = "Tr0ub4dor&3xyz"
	m := `{"pinhole":1,"regions":[{"id":"main"}],"state":{"env":"/env"}}`
	pair := `[{"name":"DB_PASSWORD","value":"` + secret + `"}]`
	s2 := sessionWith(t, m, `{"env":`+quoteJSON(pair)+`}`)
	if d2 := mustRaw(t, s2, `{"op":"describe"}`); strings.Contains(d2, secret) {
		t.Fatalf("as JSON text the pair is not caught either: %s", d2)
	}
	s := sessionWith(t, m, `{"env":`+pair+`}`)
	if d := mustRaw(t, s, `{"op":"describe"}`); strings.Contains(d, secret) {
		t.Errorf("the value of a name/value pair named as a secret shows in plain: %s", d)
	}
}
