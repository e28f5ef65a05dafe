package session_test

import (
	"os"
	"strings"
	"testing"
)

// context-model.md: navigation is the route or title changed as the agent
// sees them (a change behind [redacted] or past the truncation is none).
// The orders example also lists /router/path in redescribeOn: a redescribeOn
// path that is the page's route (or title, or a state key) counts as the
// agent sees it too, so a route whose token changed behind "[redacted]" (a
// reset or invite link) asks for no redescribe.
func TestRedescribeOnHiddenRouteChange(t *testing.T) {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	st := func(route string) string {
		return `{"router":{"path":"` + route + `","title":"Orders"},"orders":{"items":[]},"session":{"tenant":"t1"}}`
	}
	s := sessionWith(t, string(m), st("/reset/ghp_R8kQ2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"))
	d1 := mustRaw(t, s, `{"op":"describe"}`)
	mustRaw(t, s, `{"op":"observe","state":`+st("/reset/ghp_Zz1Q2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i")+`}`)
	d2 := mustRaw(t, s, `{"op":"describe"}`)
	ctx := func(d string) string { return d[strings.Index(d, `"context":`):] }
	if ctx(d1) != ctx(d2) {
		t.Fatalf("the contexts differ: %s / %s", ctx(d1), ctx(d2))
	}
	after := mustRaw(t, s, `{"op":"after","since":"s1"}`)
	if !strings.Contains(after, `"redescribe":{"required":false`) {
		t.Errorf("a route change behind [redacted] asks for a redescribe: %s", after[strings.Index(after, `"redescribe"`):])
	}
}

// A redescribeOn path of the whole state ("") still asks for a redescribe
// when any declared value changes, whatever of route and title the page
// declares (an undeclared route is no root pointer).
func TestRedescribeOnRootWithTitleOnly(t *testing.T) {
	m := `{"pinhole":1,"page":{"title":"/t"},"regions":[{"id":"main"}],"state":{"f":"/f"},"redescribeOn":[""]}`
	s := sessionWith(t, m, `{"t":"Orders","f":"one"}`)
	mustRaw(t, s, `{"op":"describe"}`)
	mustRaw(t, s, `{"op":"observe","state":{"t":"Orders","f":"two"}}`)
	if after := mustRaw(t, s, `{"op":"after","since":"s1"}`); !strings.Contains(after, `"reasons":["records"]`) {
		t.Errorf("a root redescribeOn change asks for no redescribe: %s", after[strings.Index(after, `"redescribe"`):])
	}
}
