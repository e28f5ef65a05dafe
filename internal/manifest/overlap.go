package manifest

import (
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// declared is one place where a manifest exposes store data: its absolute
// path, where in the manifest it is declared, and whether it is protected
// (mask, alias, placeholder). Both are kept in parts and put together only
// for the fault, if there is one.
type declared struct {
	// The path: base, then, for a collection's items, "*" (every item)
	// and rel; rel alone otherwise.
	base, rel jsonval.Pointer
	star      bool
	// Where: section (a fixed pointer), then item index when index >= 0,
	// then sub (fixed), then member name when named.
	section   string
	index     int
	sub, name string
	named     bool
	protected Expose
}

// len returns the number of tokens of d's path.
func (d *declared) len() int {
	n := len(d.base) + len(d.rel)
	if d.star {
		n++
	}
	return n
}

// tok returns token i of d's path.
func (d *declared) tok(i int) string {
	if i < len(d.base) {
		return d.base[i]
	}
	i -= len(d.base)
	if d.star {
		if i == 0 {
			return "*"
		}
		i--
	}
	return d.rel[i]
}

// at returns where d is declared, as a JSON Pointer into the manifest.
func (d *declared) at() string {
	at := d.section
	if d.index >= 0 {
		at += "/" + strconv.Itoa(d.index)
	}
	at += d.sub
	if d.named {
		at += "/" + jsonval.EscapeToken(d.name)
	}
	return at
}

// checkOverlap rejects a manifest that exposes a protected value in plain
// somewhere else: a plain field, state key, id, page or feedback path equal
// to, inside or around a masked, aliased or placeholder field would show
// what the protection hides.
func (c *compiler) checkOverlap() {
	p := c.plan
	n, np := len(p.State)+5, 0
	for _, col := range p.Collections {
		n += 1 + len(col.Fields)
		for _, f := range col.Fields {
			if f.Expose != Plain {
				np++
			}
		}
	}
	if p.Page != nil {
		n += len(p.Page.Allow)
	}
	// Both lists in one allocation, the protected places at the end.
	all := make([]declared, n)
	plain, protected := all[:0:n-np], all[n-np:n-np:n]
	add := func(d declared) {
		if d.protected == Plain {
			plain = append(plain, d)
		} else {
			protected = append(protected, d)
		}
	}
	for ci, col := range p.Collections {
		add(declared{base: col.From, star: true, rel: col.ID, section: "/collections", index: ci, sub: "/id"})
		for _, f := range col.Fields {
			add(declared{base: col.From, star: true, rel: f.From, section: "/collections", index: ci, sub: "/fields",
				name: f.Name, named: true, protected: f.Expose})
		}
	}
	for _, s := range p.State {
		add(declared{base: s.From, section: "/state", index: -1, name: s.Name, named: true})
	}
	if pg := p.Page; pg != nil {
		if pg.Route != nil {
			add(declared{base: pg.Route, section: "/page/route", index: -1})
		}
		if pg.Title != nil {
			add(declared{base: pg.Title, section: "/page/title", index: -1})
		}
		for i := range pg.Allow {
			// The one-token pointer is cut out of Allow: no allocation.
			add(declared{base: pg.Params, rel: jsonval.Pointer(pg.Allow[i : i+1 : i+1]), section: "/page/params/allow", index: i})
		}
	}
	if f := p.Feedback; f != nil {
		add(declared{base: f.From, star: true, rel: f.Text, section: "/feedback/text", index: -1})
		// A level or source shows as one of a few words, or as "unknown":
		// of a protected value, that tells which word it is, or none.
		if f.Level != nil {
			add(declared{base: f.From, star: true, rel: f.Level, section: "/feedback/level", index: -1})
		}
		if f.Source != nil {
			add(declared{base: f.From, star: true, rel: f.Source, section: "/feedback/source", index: -1})
		}
	}
	for i := range plain {
		for j := range protected {
			if q, pr := &plain[i], &protected[j]; overlaps(q, pr) {
				c.fail(path(q.at()), "exposes in plain a value that "+pr.at()+" declares "+pr.protected.String()+"; declare each value once")
				return
			}
		}
	}
	c.checkWatched(plain, protected)
	if c.err == nil {
		c.checkConds(plain, protected)
	}
}

// checkConds rejects a condition that reads declared values and more. A
// condition's path, or for a field condition that field of every item, is
// read whole: at the store's root or a record's, or around a collection's
// items, the feedback, a field, a page or state value, it would bring the
// members beside them, which nothing declares, into the module. Equal to or
// inside a declared value, or outside every one, it reads what it names
// (and declares it: name a leaf, since an object is read with all it holds).
func (c *compiler) checkConds(plain, protected []declared) {
	p := c.plan
	// reads reports whether w, read by the condition at, holds a declared
	// value and more, or a whole store or record, and fails then.
	reads := func(w declared, at condAt) bool {
		if len(w.rel) == 0 && (w.star || len(w.base) == 0) {
			whole := "store"
			if w.star {
				whole = "record"
			}
			c.fail(path(at.String()), "reads the whole "+whole+": a condition reads its value whole; name the value it judges")
			return true
		}
		for _, list := range [2][]declared{plain, protected} {
			for j := range list {
				if d := &list[j]; w.len() < d.len() && overlaps(&w, d) {
					c.fail(path(at.String()), "reads "+d.at()+" and more: a condition reads its value whole; name that value's path itself or a value outside it")
					return true
				}
			}
		}
		return false
	}
	// check checks every leaf of cond, declared at at; a field condition
	// for each collection cp applies to (a record-scope capability's).
	check := func(cond *Cond, at condAt, cp *Capability) {
		cond.visit(func(l *Cond) {
			if c.err != nil {
				return
			}
			if !l.Field {
				reads(declared{base: l.Ptr}, at)
				return
			}
			if cp == nil { // the compiler allows field conditions in record-scope rules only
				return
			}
			for ci := range p.Collections {
				if cp.Record && p.appliesTo(cp, ci) && reads(declared{base: p.Collections[ci].From, star: true, rel: l.Ptr}, at) {
					return
				}
			}
		})
	}
	for i, r := range p.Regions {
		check(r.ActiveWhen, condAt{region: i, rule: -1}, nil)
	}
	for i := range p.Capabilities {
		cp := &p.Capabilities[i]
		for j, r := range cp.Unavailable {
			check(r.When, condAt{region: -1, capability: i, rule: j}, cp)
		}
	}
}

// condAt is where a condition is declared: a region's activeWhen, or a
// capability's unavailable rule. Its pointer is written only for a fault.
type condAt struct{ region, capability, rule int }

// String returns the pointer of the condition in the manifest.
func (a condAt) String() string {
	if a.region >= 0 {
		return "/regions/" + strconv.Itoa(a.region) + "/activeWhen"
	}
	return "/capabilities/" + strconv.Itoa(a.capability) + "/unavailable/" + strconv.Itoa(a.rule) + "/when"
}

// checkWatched rejects a redescribeOn or sessionScope path whose change
// would tell the agent what the context hides. Such a path is read whole and
// compared raw, so it must not hold a collection's records or the feedback
// (undeclared members would enter the module, and their changes are
// reported already), a protected value, or a page or state value and more
// (a change behind "[redacted]" or past the truncation would show). A path
// equal to or inside a page or state value is admitted: a redescribeOn
// path there is compared as the context shows that value, with all it
// holds (project.After); a sessionScope path is compared raw, as it keys
// the tokens, so its change shows as a scope change even behind
// "[redacted]" (docs/protocol.md).
func (c *compiler) checkWatched(plain, protected []declared) {
	p := c.plan
	for i, r := range p.RedescribeOn {
		if !c.watched(declared{base: r, section: "/redescribeOn", index: i}, plain, protected) {
			return
		}
	}
	if p.SessionScope != nil {
		c.watched(declared{base: p.SessionScope, section: "/sessionScope", index: -1}, plain, protected)
	}
}

// watched checks one redescribeOn or sessionScope path w (checkWatched) and
// reports whether it passed.
func (c *compiler) watched(w declared, plain, protected []declared) bool {
	for j := range protected {
		if d := &protected[j]; overlaps(&w, d) {
			c.fail(path(w.at()), "covers "+d.at()+", declared "+d.protected.String()+": its changes must not show; watch a value outside it")
			return false
		}
	}
	// Every item of a collection or of the feedback, whatever it declares.
	items := func(d declared) bool {
		if overlaps(&w, &d) {
			c.fail(path(w.at()), "covers "+d.at()+", whose changes the after reports already; watch a value outside the collection, such as its filter, sort or page")
			return false
		}
		return true
	}
	for ci, col := range c.plan.Collections {
		if !items(declared{base: col.From, star: true, section: "/collections", index: ci, sub: "/from"}) {
			return false
		}
	}
	if f := c.plan.Feedback; f != nil && !items(declared{base: f.From, star: true, section: "/feedback/from", index: -1}) {
		return false
	}
	for j := range plain {
		if d := &plain[j]; w.len() < d.len() && overlaps(&w, d) && !shownWhole(&w, plain) {
			c.fail(path(w.at()), "holds "+d.at()+" and more; name that value's path itself or a value outside it")
			return false
		}
	}
	return true
}

// shownWhole reports whether w is equal to or inside a page or state value
// of plain, which the after then compares as shown, with all it holds.
func shownWhole(w *declared, plain []declared) bool {
	for i := range plain {
		if d := &plain[i]; d.section != "/collections" && !strings.HasPrefix(d.section, "/feedback/") && w.len() >= d.len() && overlaps(w, d) {
			return true
		}
	}
	return false
}

// overlaps reports whether one path is a prefix of the other, "*" matching
// any token.
func overlaps(a, b *declared) bool {
	n := min(a.len(), b.len())
	for i := 0; i < n; i++ {
		if x, y := a.tok(i), b.tok(i); x != y && x != "*" && y != "*" {
			return false
		}
	}
	return true
}
