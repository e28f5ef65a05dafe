package manifest

import (
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// A loc is a place in the manifest: a JSON Pointer that is written out
// only when a fault is reported there, so that compiling a valid manifest
// builds no paths (every allocation counts at start-up; BENCHMARKS.md,
// "Where the start-up goes"). A loc with no up holds its whole pointer,
// already escaped; any other is the member or item tok of up.
type loc struct {
	up  *loc
	tok string
}

// path is the loc of a fixed pointer, written escaped.
func path(p string) loc { return loc{tok: p} }

// in is the loc of member (or item) tok of l.
func (l *loc) in(tok string) loc { return loc{up: l, tok: tok} }

// item is the loc of item i of l.
func (l *loc) item(i int) loc { return loc{up: l, tok: strconv.Itoa(i)} }

// pointer returns the reference tokens from the loc with no up (which adds
// none) down to l, carved out of c.tokens. Each is a copy, as in fail.
func (c *compiler) pointer(l *loc) jsonval.Pointer {
	n := 0
	for u := l; u.up != nil; u = u.up {
		n++
	}
	p := c.strings(n)
	for u := l; u.up != nil; u = u.up {
		n--
		p[n] = strings.Clone(u.tok)
	}
	return p
}

// String returns l's JSON Pointer.
func (l loc) String() string {
	if l.up == nil {
		return l.tok
	}
	return l.up.String() + "/" + jsonval.EscapeToken(l.tok)
}
