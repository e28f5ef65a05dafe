package session_test

import (
	"strings"
	"testing"
)

// The credential net judges what a mask shows, not the hidden value: two
// e-mail addresses with the same first character and domain mask the
// same, whether or not the local part is key-shaped; a key in the shown
// domain masks as •••.
func TestMaskJudgesWhatItShows(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/items","id":"/id","fields":{"email":{"from":"/email","expose":"mask"}}}]}`
	mask := func(v string) string {
		s := sessionWith(t, m, `{"items":[{"id":"R1","email":"`+v+`"}]}`)
		return recordField(t, mustRaw(t, s, `{"op":"describe"}`), "R1", "email")
	}
	plain, keyShaped := mask("john.smith@example.com"), mask("jR8x2Lq9ZtK3vW7yN1mB5cD4fH6jP0sQaEe2U@example.com")
	if plain != `"j***@example.com"` || keyShaped != plain {
		t.Errorf("masks %s and %s: want both \"j***@example.com\"", plain, keyShaped)
	}
	if got := mask("a@ghp-R8fKq2LmZ0xW7vTn4YcB9sHd1JpE6uGa3Qo5.com"); got != `"•••"` {
		t.Errorf("a key in the domain masks as %s, want •••", got)
	}
}

// A prepare error repeats no input member name with characters the module
// cleans from every string it answers (a bidi override here): the name is
// left out, as a credential-shaped one is.
func TestInputErrorLeavesOutUncleanNames(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/items","id":"/id","fields":{"n":{"from":"/n"}}}],
	  "capabilities":[{"name":"view","description":"View","scope":"page","region":"r","input":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}]}`
	s := sessionWith(t, m, `{"items":[{"id":"R1","n":"x"}]}`)
	out := rawCall(t, s, `{"op":"prepare","capability":"view","input":{"a\u202eevil":1}}`)
	if !strings.HasPrefix(out, `{"error":{"code":"invalid_input"`) || strings.Contains(out, "\u202e") || strings.Contains(out, "evil") {
		t.Errorf("answer %q: want invalid_input without the name", out)
	}
}
