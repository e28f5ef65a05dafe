package manifest

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

func TestDidYouMean(t *testing.T) {
	cases := []struct{ manifest, want string }{
		{`{"pinhole":1,"colections":[]}`, `/colections: unknown key; did you mean "collections"?`},
		{`{"pinhole":1,"capabilites":[]}`, `/capabilites: unknown key; did you mean "capabilities"?`},
		{`{"pinhole":1,"regions":[{"id":"r","parnet":"q"}]}`, `/regions/0/parnet: unknown key; did you mean "parent"?`},
		{`{"pinhole":1,"regions":[{"di":"r"}]}`, `/regions/0/di: unknown key`},     // a key of two letters: any guess is a guess
		{`{"pinhole":1,"limits":{"minLimit":5}}`, `/limits/minLimit: unknown key`}, // two edits from maxLimit: another key
		{`{"pinhole":1,"$coment":"x"}`, `/$coment: unknown key; did you mean "$comment"?`},
		{`{"pinhole":1,"regions":[{"id":"r","activeWhen":{"path":"/a","eq":1,"$coment":"x"}}]}`,
			`/regions/0/activeWhen/$coment: unknown condition operator`}, // no "$comment" in conditions
		{`{"pinhole":1,"regions":[{"id":"r","colour":"red"}]}`, `/regions/0/colour: unknown key`},
		{`{"pinhole":1,"limits":{"maxLimt":5}}`, `/limits/maxLimt: unknown key; did you mean "maxLimit"?`},
		{`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"a.b","description":"Do a thing","scope":"page","region":"r",` +
			`"input":{"type":"object","propeties":{}}}]}`, `/capabilities/0/input/propeties: unknown key; did you mean "properties"?`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.manifest))
		if err == nil || err.Message != c.want {
			t.Errorf("%s: got %v, want %q", c.manifest, err, c.want)
		}
	}
}

func TestOneEdit(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"", "", false}, {"abc", "abc", false}, // no edit
		{"abc", "abd", true}, {"abc", "xbc", true}, // changed
		{"abc", "acb", true}, {"bac", "abc", true}, // swapped
		{"abc", "ab", true}, {"ab", "abc", true}, {"bc", "abc", true}, {"", "a", true}, // added or left out
		{"colections", "collections", true}, {"capabilites", "capabilities", true},
		{"kitten", "sitting", false}, {"ca", "abc", false}, {"abc", "bca", false},
		{"abcd", "badc", false}, {"minLimit", "maxLimit", false}, {"available", "unavailable", false},
	}
	for _, c := range cases {
		if got := oneEdit(c.a, c.b); got != c.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestValidKeysAllocateNothing: checking a valid object's keys allocates
// nothing. The key lists are literals at every call site; had the typo
// hint (which runs only on a fault) let them escape, compiling the orders
// manifest would make 45 more heap allocations, and in V8 those recompile
// the Go allocator during a page's start.
func TestValidKeysAllocateNothing(t *testing.T) {
	v, err := jsonval.Parse([]byte(`{"name":"a","scope":"page","$comment":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{}
	at := path("/capabilities/0")
	n := testing.AllocsPerRun(20, func() {
		if !c.commented(v, at.in("x"), []string{"name", "scope"}, "input", "region") {
			t.Fatal(c.err)
		}
	})
	if n != 0 {
		t.Errorf("checking valid keys made %v allocations, want 0", n)
	}
}
