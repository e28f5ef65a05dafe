package session_test

import (
	"strings"
	"testing"
)

// A store object of the cut marker's shape with a reason the bridge never
// gives ({"$cut": <any string>}), where the manifest declares members below
// it (/ui/sort, /ui/filter), is store data: its "$cut" member, which
// nobody declared, is pruned and never enters the module, so its change
// neither makes a new snapshot nor asks for a redescribe.
func TestCutShapedStoreObjectIsStoreData(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"main"}],
	  "collections":[{"region":"main","from":"/orders","id":"/id","fields":{"status":{"from":"/status"}}}],
	  "state":{"filter":"/ui/filter"},"redescribeOn":["/ui/sort"]}`
	s := sessionWith(t, m, `{"orders":[{"id":"o1","status":"new"}],"ui":{"$cut":"undeclared-canary-1"}}`)
	mustRaw(t, s, `{"op":"describe"}`)
	obs := mustRaw(t, s, `{"op":"observe","state":{"orders":[{"id":"o1","status":"new"}],"ui":{"$cut":"undeclared-canary-2"}}}`)
	if strings.Contains(obs, `"changed":true`) {
		t.Errorf("a change of an undeclared member makes a new snapshot: %s", obs)
	}
	after := mustRaw(t, s, `{"op":"after","since":"s1"}`)
	if strings.Contains(after, `"required":true`) {
		t.Errorf("a change of an undeclared member asks for a redescribe: %s", after)
	}
}
