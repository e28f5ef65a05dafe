package session_test

import (
	"strings"
	"testing"
)

// The credential net catches a secret after a secret name in JSON text
// ({"api_key": "4f9c…"}, password: …). The store holds objects, not JSON
// text: a declared composite (a settings object, an integration's config,
// a webhook's headers) holding the same pair as a member is judged with
// the member's name too, not string by string, and is redacted as the
// pair written out is.
func TestCompositeMemberJudgedWithItsName(t *testing.T) {
	secrets := map[string]string{
		"api_key":       "4f9c2b7e8a1d6053e9b7c4a2f8d1e6b3",
		"password":      "Tr0ub4dor&3xyz",
		"client_secret": "feluqmr7x2kd9wq4zn8v",
		"DB_PASSWORD":   "hunter2hunter2",
	}
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/integrations","id":"/id","fields":{"config":{"from":"/config"}}}],
	  "state":{"settings":"/settings"}}`
	for name, secret := range secrets {
		pair := `{"` + name + `":"` + secret + `"}`
		s := sessionWith(t, m, `{"integrations":[{"id":"i1","config":`+pair+`}],"settings":`+pair+`}`)
		d := mustRaw(t, s, `{"op":"describe"}`)
		if strings.Contains(d, secret) {
			t.Errorf("%s: the value of a secret-named member shows in plain in a composite field and state: %s", name, d)
		}
		// The same pair as JSON text in a plain string is caught.
		s2 := sessionWith(t, m, `{"integrations":[{"id":"i1","config":`+quoteJSON(pair)+`}],"settings":`+quoteJSON(pair)+`}`)
		if d2 := mustRaw(t, s2, `{"op":"describe"}`); strings.Contains(d2, secret) {
			t.Fatalf("%s: as JSON text the pair is not caught either: %s", name, d2)
		}
	}
}

// quoteJSON quotes s as a JSON string.
func quoteJSON(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// A field, state key or page param is judged with its manifest name too: a
// value declared as "password" is one given under that name.
func TestPlainValueJudgedWithItsName(t *testing.T) {
	const secret = "Tr0ub4dor&3xyz"
	m := `{"pinhole":1,"page":{"route":"/r","params":{"from":"/q","allow":["password"]}},"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/users","id":"/id","fields":{"password":{"from":"/pw"},"motto":{"from":"/motto"}}}],
	  "state":{"smtpPassword":"/settings/smtpPassword"}}`
	s := sessionWith(t, m, `{"r":"/users","q":{"password":"`+secret+`"},"users":[{"id":"u1","pw":"`+secret+`","motto":"`+secret+`"}],"settings":{"smtpPassword":"`+secret+`"}}`)
	d := mustRaw(t, s, `{"op":"describe"}`)
	if n := strings.Count(d, secret); n != 1 {
		t.Errorf("the value shows %d times, want once (under the field named motto): %s", n, d)
	}
	if !strings.Contains(d, `"redacted":["password"]`) {
		t.Errorf("the password field is not listed as redacted: %s", d)
	}
}
