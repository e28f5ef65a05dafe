package session_test

import (
	"strings"
	"testing"
)

// A request the module cannot parse is answered without the fault's byte
// offset: an observe carries the store's slice, protected values in
// plaintext among it, and an offset would tell the agent (to whom the
// bridge reports a failed sync) the lengths of the values before the
// fault. Two states that differ only in a protected value's length get the
// same answer.
func TestParseErrorHasNoOffset(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/accts","id":"/id","fields":{"card":{"from":"/card","expose":"placeholder"},"x":{"from":"/x"}}}]}`
	answer := func(card string) string {
		s := sessionWith(t, m, `{"accts":[]}`)
		return rawCall(t, s, `{"op":"observe","state":{"accts":[{"id":"A","card":"`+card+`","x":{"k":1,"k":2}}]}}`)
	}
	short, long := answer("4111"), answer("4111 1111 1111 1000")
	if !strings.Contains(short, "duplicate object key") || strings.Contains(short, "offset") {
		t.Errorf("answer %s: want the fault without an offset", short)
	}
	if short != long {
		t.Errorf("the answers tell the lengths apart:\n%s\n%s", short, long)
	}
}
