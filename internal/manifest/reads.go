package manifest

import (
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
)

// buildReads lists every store path the plan reads: what the bridge may send
// and what the prune package keeps (see prune.FromReads).
func (p *Plan) buildReads() {
	t := p.tree // Compile's, allocated with the plan
	if t == nil {
		t = &prune.Tree{}
	}
	if p.Page != nil {
		for _, ptr := range []jsonval.Pointer{p.Page.Route, p.Page.Title} {
			if ptr != nil {
				t.AddAll(ptr)
			}
		}
		if p.Page.Params != nil {
			// One pointer, its last token changed: the tree keeps tokens,
			// not pointers.
			// On the stack when it fits (a load allocates as little as it
			// can: BENCHMARKS.md, "Tier-up budgets at start-up").
			var ptrRoom [8]string
			ptr := ptrRoom[:0]
			if len(p.Page.Params) >= len(ptrRoom) {
				ptr = make(jsonval.Pointer, 0, len(p.Page.Params)+1)
			}
			ptr = append(ptr, p.Page.Params...)
			for _, a := range p.Page.Allow {
				t.AddAll(append(ptr, a))
			}
		}
	}
	for _, s := range p.State {
		t.AddAll(s.From)
	}
	for _, r := range p.RedescribeOn {
		t.AddAll(r)
	}
	if p.SessionScope != nil {
		t.AddAll(p.SessionScope)
	}
	if f := p.Feedback; f != nil {
		rel := append(make([]jsonval.Pointer, 0, 3), f.Text)
		for _, q := range []jsonval.Pointer{f.Level, f.Source} {
			if q != nil {
				rel = append(rel, q)
			}
		}
		t.AddEach(f.From, rel)
	}
	absolute := func(c *Cond) {
		c.visit(func(l *Cond) {
			if !l.Field {
				t.AddAll(l.Ptr)
			}
		})
	}
	for _, r := range p.Regions {
		absolute(r.ActiveWhen)
	}
	var relRoom [24]jsonval.Pointer
	for ci, col := range p.Collections {
		// On the stack when the id, the fields and the field conditions
		// fit, as for ptr above.
		rel := append(relRoom[:0], col.ID)
		for _, f := range col.Fields {
			rel = append(rel, f.From)
		}
		for _, cp := range p.Capabilities {
			if !cp.Record || !p.appliesTo(&cp, ci) {
				for _, r := range cp.Unavailable {
					absolute(r.When)
				}
				continue
			}
			for _, r := range cp.Unavailable {
				r.When.visit(func(l *Cond) {
					if l.Field {
						rel = append(rel, l.Ptr)
					} else {
						t.AddAll(l.Ptr)
					}
				})
			}
		}
		t.AddEach(col.From, rel)
	}
	if len(p.Collections) == 0 {
		for _, cp := range p.Capabilities {
			for _, r := range cp.Unavailable {
				absolute(r.When)
			}
		}
	}
	p.Reads, p.tree = t.Reads(), t
}

// appliesTo reports whether a record-scope capability applies to the records
// of collection ci: the collection's region is the capability's region or a
// descendant of it.
func (p *Plan) appliesTo(cp *Capability, ci int) bool {
	return p.Within(p.Collections[ci].Region, cp.Region)
}

// AppliesTo is appliesTo for callers outside the package.
func (p *Plan) AppliesTo(capability, collection int) bool {
	return p.appliesTo(&p.Capabilities[capability], collection)
}
