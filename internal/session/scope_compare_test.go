package session_test

import (
	"strings"
	"testing"
)

// SECURITY.md §2: after a session scope change an agent cannot link two
// tenants' values, neither by their tokens (TestScopeChangeUnlinksTokens)
// nor by comparing: an after since the other tenant's snapshot lists every
// alias and placeholder field as changed (all their tokens are), and a
// prepare with the other tenant's snapshot is stale whatever the values.
// Were the values compared, the after would leave out the fields whose
// value is the same in both tenants, and the prepare would be accepted
// exactly when the record's hidden values are equal.
func TestScopeChangeComparesNoValues(t *testing.T) {
	m := `{"pinhole":1,"sessionScope":"/tenant","regions":[{"id":"a"}],
	 "collections":[{"region":"a","from":"/orders","id":"/id","fields":{
	   "phone":{"from":"/phone","expose":"alias"},"card":{"from":"/card","expose":"placeholder"}}}],
	 "capabilities":[{"name":"order.open","description":"Open","scope":"record","region":"a"}]}`
	state := func(tenant, phone2 string) string {
		return `{"tenant":"` + tenant + `","orders":[
		  {"id":"SO-1","phone":"+44 20 7946 1000","card":"4111 1111 1111 1000"},
		  {"id":"SO-2","phone":"` + phone2 + `","card":"4111 1111 1111 2000"}]}`
	}
	s := sessionWith(t, m, state("acme", "+44 20 7946 2000"))
	mustRaw(t, s, `{"op":"describe"}`)
	mustRaw(t, s, `{"op":"observe","state":`+state("globex", "+44 20 7946 9999")+`}`)
	after := mustRaw(t, s, `{"op":"after","since":"s1"}`)
	changed := after[strings.Index(after, `"changed":`):strings.Index(after, `"added":`)]
	if !strings.Contains(after, `"scope"`) {
		t.Fatalf("no scope reason: %s", after)
	}
	if strings.Contains(changed, `"SO-2"`) && !strings.Contains(changed, `"SO-1"`) || !strings.Contains(changed, `"card"`) {
		t.Errorf("across a tenant change the after tells which hidden values are equal in both tenants "+
			"(SO-1's phone and card, SO-2's card: not listed; SO-2's phone: listed): %s", changed)
	}
	// The stale check answers the same question record by record.
	p1 := rawCall(t, s, `{"op":"prepare","capability":"order.open","record":"SO-1","snapshot":"s1"}`)
	mustRaw(t, s, `{"op":"observe","state":`+state("acme", "+44 20 7946 2000")+`}`)
	mustRaw(t, s, `{"op":"observe","state":`+state("globex", "+44 20 7946 9999")+`}`)
	p2 := rawCall(t, s, `{"op":"prepare","capability":"order.open","record":"SO-2","snapshot":"s3"}`)
	if strings.Contains(p1, `"ok":true`) != strings.Contains(p2, `"ok":true`) {
		t.Errorf("prepare with the other tenant's snapshot: accepted for the record whose hidden values are equal, "+
			"stale for the one whose phone differs:\n%s\n%s", p1, p2)
	}
}
