package session_test

import (
	"os"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
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

// A redescribeOn path outside every declared value is the app's own signal:
// its change asks for a redescribe, whatever of route and title the page
// declares (an undeclared route holds no path).
func TestRedescribeOnOwnSignalWithTitleOnly(t *testing.T) {
	m := `{"pinhole":1,"page":{"title":"/t"},"regions":[{"id":"main"}],"state":{"f":"/f"},"redescribeOn":["/x"]}`
	s := sessionWith(t, m, `{"t":"Orders","f":"one","x":1}`)
	mustRaw(t, s, `{"op":"describe"}`)
	mustRaw(t, s, `{"op":"observe","state":{"t":"Orders","f":"one","x":2}}`)
	if after := mustRaw(t, s, `{"op":"after","since":"s1"}`); !strings.Contains(after, `"reasons":["records"]`) {
		t.Errorf("a redescribeOn change asks for no redescribe: %s", after[strings.Index(after, `"redescribe"`):])
	}
}

// A redescribeOn path equal to or inside an allowed page param or a state
// value counts as the agent sees that value: a change behind "[redacted]"
// asks for no redescribe, a change that shows does.
func TestRedescribeOnInsideShownValues(t *testing.T) {
	m := `{"pinhole":1,"page":{"route":"/r","params":{"from":"/q","allow":["invite"]}},"regions":[{"id":"main"}],` +
		`"state":{"f":"/f"},"redescribeOn":["/q/invite","/f/link"]}`
	st := func(invite, link string) string {
		return `{"r":"/join","q":{"invite":"` + invite + `"},"f":{"link":"` + link + `"}}`
	}
	const keyA, keyB = "ghp_R8kQ2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i", "ghp_Zz1Q2vZpX7mLw3NcYt9HbJfD5sGaE1uKoP4i"
	for _, tc := range []struct {
		name     string
		from, to string
		want     string
	}{
		{"param behind [redacted]", st(keyA, "a"), st(keyB, "a"), `"required":false`},
		{"state member behind [redacted]", st("x", keyA), st("x", keyB), `"required":false`},
		{"param that shows", st("x", "a"), st("y", "a"), `"reasons":["records"]`},
		{"state member that shows", st("x", "a"), st("x", "b"), `"reasons":["records"]`},
	} {
		s := sessionWith(t, m, tc.from)
		mustRaw(t, s, `{"op":"describe"}`)
		mustRaw(t, s, `{"op":"observe","state":`+tc.to+`}`)
		if after := mustRaw(t, s, `{"op":"after","since":"s1"}`); !strings.Contains(after, tc.want) {
			t.Errorf("%s: want %s: %s", tc.name, tc.want, after[strings.Index(after, `"redescribe"`):])
		}
	}
}

// A redescribeOn path that holds more than a shown value is refused at
// load: its raw change would tell what the context hides.
func TestRedescribeOnAroundShownValueRefused(t *testing.T) {
	m := `{"pinhole":1,"page":{"title":"/t"},"regions":[{"id":"main"}],"state":{"f":"/f"},"redescribeOn":[""]}`
	out := rawCall(t, session.New(), `{"op":"load","key":"`+exchangeKey+`","manifest":`+m+`}`)
	if !strings.Contains(out, `"/redescribeOn/0: holds /state/f and more`) {
		t.Errorf("a root redescribeOn loads: %s", out)
	}
}
