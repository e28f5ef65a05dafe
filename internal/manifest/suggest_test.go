package manifest

import "testing"

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

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "abd", 1}, {"abc", "acb", 1}, {"abc", "ab", 1},
		{"ab", "abc", 1}, {"kitten", "sitting", 3}, {"colections", "collections", 1}, {"ca", "abc", 3},
	}
	for _, c := range cases {
		if got := editDistance(c.a, c.b, 9); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.a, c.b, 1); got != min(c.want, 1) {
			t.Errorf("editDistance(%q, %q, limit 1) = %d, want %d", c.a, c.b, got, min(c.want, 1))
		}
	}
}
