package session_test

import (
	"strings"
	"testing"
)

// A masked value shows a shape ("•••", "•••• 4242", "l***@example.com").
// One the credential net catches masks as "•••" too, not as "[redacted]"
// with the field listed in redacted: that would tell the agent that a
// value it is not to read is credential-shaped (a live API key rather than
// an empty or revoked one), and an after would report the field as changed
// when the hidden value becomes or stops being a key.
func TestMaskHidesCredentialShape(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/integrations","id":"/id",
	    "fields":{"name":{"from":"/name"},"apiKey":{"from":"/apiKey","expose":"mask"}}}]}`
	s := sessionWith(t, m, `{"integrations":[
	  {"id":"i1","name":"Stripe","apiKey":"sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
	  {"id":"i2","name":"Mailer","apiKey":"revoked"}]}`)
	d := mustRaw(t, s, `{"op":"describe"}`)
	rec := func(id string) string {
		i := strings.Index(d, `{"id":"`+id+`"`)
		j := strings.Index(d[i:], `"region"`)
		k := strings.Index(d[i+j:], `},{"id"`)
		if k < 0 {
			k = strings.Index(d[i+j:], `}],"recordIds"`)
		}
		return d[i+j : i+j+k]
	}
	a, b := strings.ReplaceAll(rec("i1"), "Stripe", "X"), strings.ReplaceAll(rec("i2"), "Mailer", "X")
	if a != b {
		t.Errorf("two masked values, one a key and one not, show differently:\n%s\n%s", a, b)
	}
	mustRaw(t, s, `{"op":"observe","state":{"integrations":[
	  {"id":"i1","name":"Stripe","apiKey":"revoked"},
	  {"id":"i2","name":"Mailer","apiKey":"revoked"}]}}`)
	if after := mustRaw(t, s, `{"op":"after","since":"s1"}`); !strings.Contains(after, `"changedTotal":0`) {
		t.Errorf("a masked key that was revoked shows as a changed record: %s", after)
	}
}
