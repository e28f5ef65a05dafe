package project

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// Request is a checked describe request: a window (Offset, Limit) or a
// selection of record ids (Record).
type Request struct {
	Offset int
	Limit  int
	// Window is true when the caller passed offset or limit.
	Window bool
	Record []string
}

// base holds the parts of a describe response that do not depend on the
// request.
type base struct {
	caps        []wire.Capability
	page        *wire.Page
	regions     []wire.Region
	ids         []string
	state       wire.Members
	stateCut    wire.Counts
	stateLeft   []string // state keys whose value is a cut marker
	feedback    []wire.Feedback
	feedbackN   int
	pageUnavail []wire.Unavailable
}

func (s *Snapshot) getBase() *base {
	if s.base != nil {
		return s.base
	}
	p, lim := s.Plan, s.limits()
	b := &base{caps: []wire.Capability{}, regions: []wire.Region{}, feedback: []wire.Feedback{}, state: wire.Members{}}
	for i := range p.Regions {
		r := &p.Regions[i]
		if !s.Active[i] {
			continue
		}
		wr := wire.Region{ID: r.ID, Description: r.Description, Cut: s.regionCut(i)}
		if r.Parent >= 0 {
			wr.Parent = p.Regions[r.Parent].ID
		}
		b.regions = append(b.regions, wr)
	}
	for i := range p.Capabilities {
		c := &p.Capabilities[i]
		if !s.Active[c.Region] {
			continue
		}
		b.caps = append(b.caps, wire.Capability{Name: c.Name, Description: c.Description,
			Scope: c.Scope(), Region: p.Regions[c.Region].ID, Input: c.InputJSON})
		if !c.Record {
			if reason := s.Unavailable(i, nil); reason != "" {
				b.pageUnavail = append(b.pageUnavail, wire.Unavailable{Capability: c.Name, Reason: reason})
			}
		}
	}
	n := len(s.Records)
	if n > lim.MaxRecordIds {
		n = lim.MaxRecordIds
	}
	b.ids = make([]string, n)
	for i := range b.ids {
		b.ids[i] = s.Records[i].ID
	}
	b.page = s.page()
	for _, k := range p.State {
		v := prune.Lookup(s.Root, k.From)
		if v == nil {
			continue
		}
		if prune.IsCut(v) {
			b.state = append(b.state, wire.Member{Key: k.Name, Value: nullJSON})
			b.stateLeft = append(b.stateLeft, k.Name)
			continue
		}
		o := plain(v, lim.MaxFieldChars, secretNamed(k.Name, k.SecretName))
		b.state = append(b.state, wire.Member{Key: k.Name, Value: o.json})
		if o.truncated {
			b.stateCut = append(b.stateCut, wire.Count{Key: k.Name, N: o.origLen})
		}
	}
	b.feedback, b.feedbackN = s.feedback()
	s.base = b
	return b
}

func (s *Snapshot) page() *wire.Page {
	pg := s.Plan.Page
	if pg == nil {
		return nil
	}
	max := s.limits().MaxFieldChars
	out := &wire.Page{}
	text := func(name string, ptr jsonval.Pointer) string {
		v := ptr.Resolve(s.Root)
		if ptr == nil || v == nil || v.Kind != jsonval.String {
			return ""
		}
		if expose.IsCredential(v.S) {
			return expose.Redacted
		}
		t, n, cut := expose.Truncate(expose.Clean(v.S), max)
		if cut {
			out.Truncated = append(out.Truncated, wire.Count{Key: name, N: n})
		}
		return t
	}
	out.Route, out.Title = text("route", pg.Route), text("title", pg.Title)
	if params := pg.Params.Resolve(s.Root); pg.Params != nil && params != nil && params.Kind == jsonval.Object {
		for _, name := range pg.Allow {
			v := params.Get(name)
			if v == nil || v.Kind == jsonval.Array || v.Kind == jsonval.Object {
				continue
			}
			o := plain(v, max, secretNamed(name, expose.SecretName(name)))
			out.Params = append(out.Params, wire.Member{Key: name, Value: o.json})
			if o.truncated {
				out.Truncated = append(out.Truncated, wire.Count{Key: "params/" + name, N: o.origLen})
			}
		}
	}
	if out.Route == "" && out.Title == "" && len(out.Params) == 0 {
		return nil
	}
	return out
}

var (
	levels  = []string{"error", "warning", "info", "success"}
	sources = []string{"app", "server", "user", "system", "validation"}
)

// oneOf returns v's text when it is one of the allowed words, otherwise def.
// Feedback levels and sources are values from the store; restricting them
// to known words keeps data from posing as something else.
func oneOf(v *jsonval.Value, allowed []string, def string) string {
	if v != nil && v.Kind == jsonval.String {
		for _, a := range allowed {
			if v.S == a {
				return a
			}
		}
	}
	return def
}

func (s *Snapshot) feedback() ([]wire.Feedback, int) {
	out := []wire.Feedback{}
	f := s.Plan.Feedback
	if f == nil {
		return out, 0
	}
	arr := f.From.Resolve(s.Root)
	if arr == nil || arr.Kind != jsonval.Array {
		return out, 0
	}
	lim := s.limits()
	total := 0
	for _, it := range arr.Items {
		t := f.Text.Resolve(it)
		if t == nil || t.Kind != jsonval.String {
			continue
		}
		total++
		if len(out) >= lim.MaxFeedback {
			continue
		}
		fb := feedbackItem(f, it, lim.MaxFieldChars)
		out = append(out, fb)
	}
	return out, total
}

// Describe answers a checked request from the snapshot named id.
func (s *Snapshot) Describe(id string, req Request, k *expose.Keyer, st *Stats) ([]byte, *wire.Error) {
	b := s.getBase()
	lim := s.limits()
	ctx := wire.Context{
		Page:            b.page,
		Regions:         b.regions,
		RecordIds:       b.ids,
		RecordIdsTotal:  len(s.Records),
		RecordsTotal:    s.Total,
		State:           b.state,
		StateTruncated:  b.stateCut,
		StateCut:        b.stateLeft,
		CutTotal:        s.Cut,
		DuplicatesTotal: s.Duplicates,
		Feedback:        b.feedback,
		FeedbackTotal:   b.feedbackN,
	}
	var recs []*Rec
	if req.Record != nil {
		for i, rid := range req.Record {
			j, ok := s.ByID[rid]
			if !ok {
				// Unknown and inactive ids give the same answer: no oracle.
				return nil, wire.NewError(wire.CodeUnknownRecord, "record["+strconv.Itoa(i)+"] is not a referenceable record id", "record")
			}
			recs = append(recs, &s.Records[j])
		}
	} else {
		end := req.Offset + req.Limit
		if end > len(s.Records) {
			end = len(s.Records)
		}
		for i := req.Offset; i < end; i++ {
			recs = append(recs, &s.Records[i])
		}
		if req.Window || len(recs) < len(s.Records) {
			ctx.RecordWindow = &wire.Window{Offset: req.Offset, Limit: req.Limit, Total: len(s.Records)}
		}
	}
	ctx.Records = make([]wire.Record, len(recs))
	for i, r := range recs {
		ctx.Records[i] = s.record(r, k)
	}
	resp := wire.Describe{Snapshot: id, Limits: *lim, Capabilities: b.caps, Context: ctx}
	out, err := fit(&resp, recs, req, s)
	if err == nil {
		*st = statsOf(resp.Context.Records, len(resp.Context.RecordIds))
	}
	return out, err
}

func (s *Snapshot) record(r *Rec, k *expose.Keyer) wire.Record {
	col := &s.Plan.Collections[r.Coll]
	out := wire.Record{ID: r.ID, Region: s.Plan.Regions[col.Region].ID, Fields: make(wire.Members, 0, len(col.Fields))}
	for i := range col.Fields {
		f := &col.Fields[i]
		field(&out, f, prune.Lookup(s.Item(r), f.From), s.limits().MaxFieldChars, k)
	}
	return out
}

// unavailable lists page-scope entries and record-scope entries for recs.
func (s *Snapshot) unavailable(recs []*Rec) []wire.Unavailable {
	out := append([]wire.Unavailable{}, s.getBase().pageUnavail...)
	for _, r := range recs {
		for ci := range s.Plan.Capabilities {
			cp := &s.Plan.Capabilities[ci]
			if !cp.Record || !s.Active[cp.Region] || !s.Plan.AppliesTo(ci, r.Coll) {
				continue
			}
			if reason := s.Unavailable(ci, r); reason != "" {
				out = append(out, wire.Unavailable{Capability: cp.Name, Record: r.ID, Reason: reason})
			}
		}
	}
	return out
}

// Stats summarise a response for the audit log: counts and field names,
// never values.
type Stats struct {
	Records   int      // records returned (describe) or changed (after)
	Ids       int      // record ids returned, or added and removed
	Fields    []string // names of the fields returned, in manifest order
	Redacted  int      // values the credential net replaced
	Truncated int      // values cut at their limit
}

func statsOf(recs []wire.Record, ids int) Stats {
	st := Stats{Records: len(recs), Ids: ids}
	for i := range recs {
		r := &recs[i]
		st.Redacted += len(r.Redacted)
		st.Truncated += len(r.Truncated)
	next:
		for _, f := range r.Fields {
			for _, have := range st.Fields {
				if have == f.Key {
					continue next
				}
			}
			st.Fields = append(st.Fields, f.Key)
		}
	}
	return st
}
