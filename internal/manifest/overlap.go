package manifest

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// declared is one place where a manifest exposes store data: its absolute
// path ("*" stands for every item of a collection), where in the manifest it
// is declared, and whether it is protected (mask, alias, placeholder).
type declared struct {
	path      jsonval.Pointer
	at        string
	protected Expose
}

// checkOverlap rejects a manifest that exposes a protected value in plain
// somewhere else: a plain field, state key, id, page or feedback path equal
// to, inside or around a masked, aliased or placeholder field would show
// what the protection hides.
func (c *compiler) checkOverlap() {
	p := c.plan
	var plain, protected []declared
	add := func(path jsonval.Pointer, at string, e Expose) {
		d := declared{path: path, at: at, protected: e}
		if e == Plain {
			plain = append(plain, d)
		} else {
			protected = append(protected, d)
		}
	}
	join := func(base jsonval.Pointer, rel jsonval.Pointer) jsonval.Pointer {
		out := append(append(append(jsonval.Pointer{}, base...), "*"), rel...)
		return out
	}
	for ci, col := range p.Collections {
		at := "/collections/" + strconv.Itoa(ci)
		add(join(col.From, col.ID), at+"/id", Plain)
		for _, f := range col.Fields {
			add(join(col.From, f.From), at+"/fields"+jsonval.Pointer{f.Name}.String(), f.Expose)
		}
	}
	for _, s := range p.State {
		add(s.From, "/state"+jsonval.Pointer{s.Name}.String(), Plain)
	}
	if pg := p.Page; pg != nil {
		if pg.Route != nil {
			add(pg.Route, "/page/route", Plain)
		}
		if pg.Title != nil {
			add(pg.Title, "/page/title", Plain)
		}
		for i, a := range pg.Allow {
			add(append(append(jsonval.Pointer{}, pg.Params...), a), "/page/params/allow/"+strconv.Itoa(i), Plain)
		}
	}
	if f := p.Feedback; f != nil {
		add(join(f.From, f.Text), "/feedback/text", Plain)
	}
	for _, q := range plain {
		for _, pr := range protected {
			if overlaps(q.path, pr.path) {
				c.fail(q.at, "exposes in plain a value that "+pr.at+" declares "+pr.protected.String()+"; declare each value once")
				return
			}
		}
	}
}

// overlaps reports whether one path is a prefix of the other, "*" matching
// any token.
func overlaps(a, b jsonval.Pointer) bool {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] && a[i] != "*" && b[i] != "*" {
			return false
		}
	}
	return true
}
