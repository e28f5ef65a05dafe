package project

import (
	"slices"
	"sort"
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// MaxAvailabilityFlips is how many capability availability changes an after
// reports before it asks for a redescribe ("availability changes broadly",
// docs/context-model.md#after-an-action). It is a fixed policy, not a manifest limit.
const MaxAvailabilityFlips = 5

// The redescribe reasons, in the order an after lists them.
const (
	ReasonNavigation   = "navigation"
	ReasonModal        = "modal"
	ReasonRecords      = "records"
	ReasonAvailability = "availability"
	ReasonScope        = "scope"
	ReasonInsufficient = "insufficient"
)

// After returns the after observation between two snapshots of the same
// plan, named fromID and toID.
//
//   - records.changed: records referenceable in both whose projected fields
//     differ, with only those fields, projected as describe projects them
//     (a field that disappeared is null); records.added and records.removed:
//     ids that became or stopped being referenceable. Lists follow view
//     order and are bounded by maxLimit (changed) and maxRecordIds (ids);
//     the totals count everything.
//   - state: the declared state keys whose projection changed (a change
//     past the truncation or behind "[redacted]" is none), projected as in
//     describe (a key that disappeared is null).
//   - capabilities: availability flips of capabilities whose region is
//     active in both snapshots, page scope first (manifest order), then
//     record scope for records referenceable in both (view order, then
//     manifest order); each list is bounded by maxUnavailable.
//   - feedback: items of to that from did not have (compared as projected:
//     level, source, text, truncation and redaction; as a multiset),
//     bounded by maxFeedback, with
//     feedbackTotal.
//   - redescribe: required, with the reasons that apply, in this order:
//     navigation (route or title changed as projected), modal (the set of active regions
//     changed), records (a redescribeOn value changed, as projected when
//     it is, or is inside, the page's route, title or an allowed param or
//     a state key, or the order of the
//     referenceable ids changed other than by additions and removals),
//     availability (more than MaxAvailabilityFlips flips), scope (the
//     sessionScope value changed, compared raw: the app's signal, and
//     what keys its tokens), insufficient (a list was cut, or the
//     after had to be shortened to fit maxResponseBytes).
//
// When the encoded after exceeds maxResponseBytes, entries are dropped from
// the end of changed, added, removed, feedback, unavailable, available and
// state, in that order, and the after says insufficient.
func After(from, to *Snapshot, k *expose.Keyer, fromID, toID string, st *Stats) ([]byte, *wire.Error) {
	if from.Plan != to.Plan {
		return nil, wire.NewError(wire.CodeStaleSnapshot, "a manifest was loaded after that snapshot; run describe instead", "since")
	}
	p, lim := to.Plan, to.limits()
	a := wire.After{
		From: fromID, To: toID,
		Records: wire.AfterRecords{Changed: []wire.Record{}, Added: []string{}, Removed: []string{}},
		State:   wire.Members{},
		Capabilities: wire.AfterCapabilities{Available: []wire.Available{},
			Unavailable: []wire.Unavailable{}},
		Feedback: []wire.Feedback{},
	}
	cut := false
	recs := &a.Records
	// Most afters see the same ids in the same order: then no map lookups.
	same := sameIDs(from, to)
	for i := range to.Records {
		r := &to.Records[i]
		j, ok := i, same
		if !same {
			j, ok = from.ByID[r.ID]
		}
		if !ok {
			recs.AddedTotal++
			if len(recs.Added) < lim.MaxRecordIds {
				recs.Added = append(recs.Added, r.ID)
			} else {
				cut = true
			}
			continue
		}
		if rec, changed := changedRecord(&from.Records[j], r, from, to, k); changed {
			recs.ChangedTotal++
			if len(recs.Changed) < lim.MaxLimit {
				recs.Changed = append(recs.Changed, rec)
			} else {
				cut = true
			}
		}
	}
	for i := 0; i < len(from.Records) && !same; i++ {
		if _, ok := to.ByID[from.Records[i].ID]; !ok {
			recs.RemovedTotal++
			if len(recs.Removed) < lim.MaxRecordIds {
				recs.Removed = append(recs.Removed, from.Records[i].ID)
			} else {
				cut = true
			}
		}
	}
	a.State, a.StateTruncated = changedState(from, to)
	a.StateCut = keepNames(to.getBase().stateLeft, a.State)
	flips, listed := availability(from, to, same, &a.Capabilities)
	cut = cut || listed < flips
	a.Feedback, a.FeedbackTotal = newFeedback(from, to)
	if len(a.Feedback) < a.FeedbackTotal {
		cut = true
	}

	var why [6]bool
	if pg := p.Page; pg != nil && (changedAt(pg.Route, from, to) || changedAt(pg.Title, from, to)) {
		// Navigation is what the agent can see change: a redacted route
		// that changed behind "[redacted]" is no reason.
		why[0] = !samePlace(from.getBase().page, to.getBase().page)
	}
	why[1] = regionsChanged(from, to)
	why[2] = redescribeOnChanged(from, to)
	why[2] = why[2] || (!same && reordered(from, to))
	why[3] = flips > MaxAvailabilityFlips
	// The scope keys the tokens as written (the session's SetScope): a
	// scope written otherwise is another scope, its tokens all new.
	why[4] = p.SessionScope != nil && !jsonval.Same(prune.Lookup(from.Root, p.SessionScope), prune.Lookup(to.Root, p.SessionScope))
	why[5] = cut
	setReasons(&a.Redescribe, why)

	out := wire.Encode(&a)
	if len(out) <= lim.MaxResponseBytes {
		*st = statsOf(a.Records.Changed, len(a.Records.Added)+len(a.Records.Removed))
		return out, nil
	}
	why[5] = true
	setReasons(&a.Redescribe, why)
	caps := &a.Capabilities
	changed, added, removed, fb := recs.Changed, recs.Added, recs.Removed, a.Feedback
	unavail, avail, state, stateCut := caps.Unavailable, caps.Available, a.State, a.StateTruncated
	phases := []struct {
		n   int
		set func(int)
	}{
		{len(changed), func(n int) { recs.Changed = changed[:n] }},
		{len(added), func(n int) { recs.Added = added[:n] }},
		{len(removed), func(n int) { recs.Removed = removed[:n] }},
		{len(fb), func(n int) { a.Feedback = fb[:n] }},
		{len(unavail), func(n int) { caps.Unavailable = unavail[:n] }},
		{len(avail), func(n int) { caps.Available = avail[:n] }},
		{len(state), func(n int) {
			a.State, a.StateTruncated = state[:n], keepCounts(stateCut, state[:n])
			a.StateCut = keepNames(to.getBase().stateLeft, a.State)
		}},
	}
	for _, ph := range phases {
		// Drop the fewest entries from the end that make it fit.
		k := sort.Search(ph.n, func(k int) bool {
			ph.set(ph.n - k)
			return wire.EncodedLen(&a) <= lim.MaxResponseBytes
		})
		ph.set(ph.n - k)
		if out = wire.Encode(&a); len(out) <= lim.MaxResponseBytes {
			*st = statsOf(a.Records.Changed, len(a.Records.Added)+len(a.Records.Removed))
			return out, nil
		}
	}
	// Unreachable: what is left is a few hundred bytes, and maxResponseBytes
	// is at least manifest.MinResponseBytes.
	return nil, wire.NewError(wire.CodeStateTooLarge, "the after does not fit maxResponseBytes", "maxResponseBytes")
}

// Unchanged reports whether to shows nothing from does not: an after
// between them would list nothing and ask for no redescribe, and their
// totals and warnings are the same. A state that changed only where the
// context hides it (behind a mask, "[redacted]" or the truncation) is such
// a snapshot; the session then keeps its snapshot id, so that the id does
// not tell the agent that a hidden value changed.
func Unchanged(from, to *Snapshot) bool {
	if from.Plan != to.Plan || from.Scope != to.Scope || from.Total != to.Total || from.Skipped != to.Skipped ||
		from.Duplicates != to.Duplicates || from.Cut != to.Cut || !slices.Equal(from.Warnings, to.Warnings) || !sameIDs(from, to) {
		return false
	}
	// Most observes change what the agent sees of a record or a state key:
	// found first, from the records whose items changed, without the whole
	// comparison below.
	for i := range to.Records {
		fr, tr := &from.Records[i], &to.Records[i]
		if (from.Item(fr) != to.Item(tr) || fr.Coll != tr.Coll) && RecordChanged(fr, tr, from, to) {
			return false
		}
	}
	if st, _ := changedState(from, to); len(st) > 0 || !sameStateKeys(from.getBase(), to.getBase()) {
		return false
	}
	// The page with its params, the feedback as a sequence and the
	// unavailable reasons are stricter than an after's navigation, new
	// feedback and availability flips: describe shows them whole. Then
	// the after's other reasons to redescribe.
	return samePage(from.getBase().page, to.getBase().page) && sameFeedback(from, to) && sameReasons(from, to) &&
		!regionsChanged(from, to) && !redescribeOnChanged(from, to)
}

// regionsChanged reports whether the set of active regions changed, or a
// region's collection became cut or readable again (its records went or
// came whole, as much a change as a region that appeared).
func regionsChanged(from, to *Snapshot) bool {
	for i := range from.Active {
		if from.Active[i] != to.Active[i] || from.regionCut(i) != to.regionCut(i) {
			return true
		}
	}
	return false
}

// redescribeOnChanged reports whether a redescribeOn value changed
// (redescribeChanged).
func redescribeOnChanged(from, to *Snapshot) bool {
	for _, ptr := range to.Plan.RedescribeOn {
		if redescribeChanged(ptr, from, to) {
			return true
		}
	}
	return false
}

// sameStateKeys reports whether both show the same state keys: an after
// reads an absent key as null, describe leaves it out.
func sameStateKeys(a, b *base) bool {
	return slices.EqualFunc(a.state, b.state, func(x, y wire.Member) bool { return x.Key == y.Key })
}

// samePage reports whether two pages show the same: route, title, params
// and their truncations.
func samePage(a, b *wire.Page) bool {
	if !samePlace(a, b) {
		return false
	}
	a, b = orNone(a), orNone(b)
	return slices.Equal(a.Truncated, b.Truncated) && slices.EqualFunc(a.Params, b.Params, func(x, y wire.Member) bool {
		return x.Key == y.Key && string(x.Value) == string(y.Value)
	})
}

// sameFeedback reports whether both snapshots show the same feedback
// items, in the same order.
func sameFeedback(from, to *Snapshot) bool {
	f := to.Plan.Feedback
	if f == nil {
		return true
	}
	var keys []string
	eachFeedback(from, f, func(key string, _ wire.Feedback) { keys = append(keys, key) })
	i, same := 0, true
	eachFeedback(to, f, func(key string, _ wire.Feedback) {
		same = same && i < len(keys) && keys[i] == key
		i++
	})
	return same && i == len(keys)
}

// sameReasons reports whether every capability is active in both
// snapshots or in neither, and unavailable for the same reason in both
// (for every record, of a record-scope one; the snapshots hold the same
// ids). A record whose item both share can only change through a store
// path a rule reads.
func sameReasons(from, to *Snapshot) bool {
	p := to.Plan
	for ci := range p.Capabilities {
		if from.CapabilityActive(ci) != to.CapabilityActive(ci) {
			return false
		}
		if !to.CapabilityActive(ci) {
			continue
		}
		if !p.Capabilities[ci].Record {
			if from.Unavailable(ci, nil) != to.Unavailable(ci, nil) {
				return false
			}
			continue
		}
		stable := true
		for _, r := range p.Capabilities[ci].Unavailable {
			stable = stable && !condChanged(r.When, from, to)
		}
		for i := range to.Records {
			fr, tr := &from.Records[i], &to.Records[i]
			if stable && from.Item(fr) == to.Item(tr) || !p.AppliesTo(ci, tr.Coll) {
				continue
			}
			if from.Unavailable(ci, fr) != to.Unavailable(ci, tr) {
				return false
			}
		}
	}
	return true
}

func setReasons(r *wire.Redescribe, why [6]bool) {
	names := [6]string{ReasonNavigation, ReasonModal, ReasonRecords, ReasonAvailability, ReasonScope, ReasonInsufficient}
	r.Reasons = r.Reasons[:0]
	if r.Reasons == nil {
		r.Reasons = []string{}
	}
	for i, ok := range why {
		if ok {
			r.Reasons = append(r.Reasons, names[i])
		}
	}
	r.Required = len(r.Reasons) > 0
}

// redescribeChanged reports whether the redescribeOn value at ptr changed.
// A path equal to or inside the page's route, title or an allowed param, or
// a state key, counts only when that value shows differently: one that
// changed behind "[redacted]" or past the truncation would otherwise tell
// the agent what the context hides. The manifest admits no redescribeOn
// path that holds more than such a value (manifest.checkWatched).
func redescribeChanged(ptr jsonval.Pointer, from, to *Snapshot) bool {
	if !changedAt(ptr, from, to) {
		return false
	}
	within := func(place jsonval.Pointer) bool {
		return place != nil && len(ptr) >= len(place) && slices.Equal(ptr[:len(place)], place)
	}
	if pg := to.Plan.Page; pg != nil {
		if within(pg.Route) || within(pg.Title) {
			return !samePlace(from.getBase().page, to.getBase().page)
		}
		if pg.Params != nil && len(ptr) > len(pg.Params) && within(pg.Params) && slices.Contains(pg.Allow, ptr[len(pg.Params)]) {
			return !sameParam(from.getBase().page, to.getBase().page, ptr[len(pg.Params)])
		}
	}
	for _, key := range to.Plan.State {
		if within(key.From) {
			_, _, shows := stateShows(from.getBase(), to.getBase(), key.Name)
			return shows
		}
	}
	return true
}

// changedAt reports whether the value at an absolute declared path differs
// between the snapshots (nil pointer: not declared, never changed).
func changedAt(ptr jsonval.Pointer, from, to *Snapshot) bool {
	return ptr != nil && !jsonval.Equal(prune.Lookup(from.Root, ptr), prune.Lookup(to.Root, ptr))
}

// sameIDs reports whether both snapshots hold the same ids in the same
// order.
func sameIDs(from, to *Snapshot) bool {
	// A loop, not slices.EqualFunc: every observe runs it over every
	// record, and the module is built without inlining.
	if len(from.Records) != len(to.Records) {
		return false
	}
	for i := range from.Records {
		if from.Records[i].ID != to.Records[i].ID {
			return false
		}
	}
	return true
}

// reordered reports whether the records referenceable in both snapshots
// appear in a different order.
func reordered(from, to *Snapshot) bool {
	j := 0
	for i := range to.Records {
		id := to.Records[i].ID
		if _, ok := from.ByID[id]; !ok {
			continue
		}
		for ; j < len(from.Records); j++ {
			if _, ok := to.ByID[from.Records[j].ID]; ok {
				break
			}
		}
		if j == len(from.Records) || from.Records[j].ID != id {
			return true
		}
		j++
	}
	return false
}

// changedRecord projects the fields of record tr (in to) whose projection
// differs from that of the same record fr in the previous snapshot.
func changedRecord(fr, tr *Rec, from, to *Snapshot, k *expose.Keyer) (wire.Record, bool) {
	rescoped := from.Scope != to.Scope
	if from.Item(fr) == to.Item(tr) && fr.Coll == tr.Coll && !rescoped {
		return wire.Record{}, false
	}
	p := to.Plan
	col := &p.Collections[tr.Coll]
	max := to.limits().MaxFieldChars
	moved := fr.Coll != tr.Coll // a record that changed collection shows all its fields
	var out wire.Record
	for i := range col.Fields {
		f := &col.Fields[i]
		nv := prune.Lookup(to.Item(tr), f.From)
		var ov *jsonval.Value
		if !moved {
			ov = prune.Lookup(from.Item(fr), f.From)
			// A token minted in another scope differs whatever the value.
			retokened := rescoped && tokenized(f) && nv != nil && !prune.IsCut(nv)
			if !retokened && (jsonval.Same(ov, nv) || !changeShows(f, ov, nv, max)) {
				continue
			}
		}
		if nv == nil {
			if !moved {
				out.Fields = append(out.Fields, wire.Member{Key: f.Name, Value: nullJSON})
			}
			continue
		}
		var now wire.Record
		field(&now, f, nv, max, k)
		out.Fields = append(out.Fields, now.Fields...)
		out.Truncated = append(out.Truncated, now.Truncated...)
		out.Redacted = append(out.Redacted, now.Redacted...)
		out.Cut = append(out.Cut, now.Cut...)
		out.UserContent = append(out.UserContent, now.UserContent...)
	}
	if len(out.Fields) == 0 {
		return out, false
	}
	out.ID, out.Region = tr.ID, p.Regions[col.Region].ID
	return out, true
}

// changedState returns the declared state keys whose projection changed,
// projected as describe projects them. A value that changed where the agent
// cannot see it (past the truncation, behind "[redacted]") is not listed:
// the after would tell that it changed.
func changedState(from, to *Snapshot) (wire.Members, wire.Counts) {
	out := wire.Members{}
	var cut wire.Counts
	b := to.getBase()
	var fb *base
	for _, key := range to.Plan.State {
		if !changedAt(key.From, from, to) {
			continue
		}
		if fb == nil {
			fb = from.getBase()
		}
		m, n, shows := stateShows(fb, b, key.Name)
		if !shows {
			continue // the same to the agent (a null that became cut is not)
		}
		out = append(out, m)
		if n >= 0 {
			cut = append(cut, wire.Count{Key: key.Name, N: n})
		}
	}
	return out, cut
}

// stateShows reports whether state key name shows differently in b than in
// fb (a null that became cut does), with its projection in b and its length
// before truncation (-1: not truncated).
func stateShows(fb, b *base, name string) (wire.Member, int, bool) {
	m, n := projectedState(b, name)
	was, wasN := projectedState(fb, name)
	same := string(was.Value) == string(m.Value) && wasN == n &&
		slices.Contains(fb.stateLeft, name) == slices.Contains(b.stateLeft, name)
	return m, n, !same
}

// projectedState returns state key name as b projects it (null when
// absent) and its length before truncation (-1: not truncated).
func projectedState(b *base, name string) (wire.Member, int) {
	m := wire.Member{Key: name, Value: nullJSON}
	for _, sm := range b.state {
		if sm.Key == name {
			m = sm
			break
		}
	}
	for _, c := range b.stateCut {
		if c.Key == name {
			return m, c.N
		}
	}
	return m, -1
}

// samePlace reports whether two page projections show the same route and
// title, truncation included.
func samePlace(a, b *wire.Page) bool {
	a, b = orNone(a), orNone(b)
	if a.Route != b.Route || a.Title != b.Title {
		return false
	}
	cutOf := func(p *wire.Page, key string) int {
		for _, c := range p.Truncated {
			if c.Key == key {
				return c.N
			}
		}
		return -1
	}
	return cutOf(a, "route") == cutOf(b, "route") && cutOf(a, "title") == cutOf(b, "title")
}

// orNone is p, or an empty page (no route, no title, no params) for none.
func orNone(p *wire.Page) *wire.Page {
	if p == nil {
		return &wire.Page{}
	}
	return p
}

// sameParam reports whether the page param name shows the same in a and b:
// the same value, truncated at the same length.
func sameParam(a, b *wire.Page, name string) bool {
	a, b = orNone(a), orNone(b)
	value := func(p *wire.Page) (string, bool) {
		for _, m := range p.Params {
			if m.Key == name {
				return string(m.Value), true
			}
		}
		return "", false
	}
	cut := func(p *wire.Page) int {
		for _, c := range p.Truncated {
			if c.Key == "params/"+name {
				return c.N
			}
		}
		return -1
	}
	av, aok := value(a)
	bv, bok := value(b)
	return av == bv && aok == bok && cut(a) == cut(b)
}

// RecordChanged reports whether record tr of to shows differently from the
// same record fr of from: a field's projection changed (changeShows), or
// the record moved to another collection. A change the projection hides (a
// masked value whose mask is the same, a value only an availability rule
// reads) does not count.
func RecordChanged(fr, tr *Rec, from, to *Snapshot) bool {
	if from.Item(fr) == to.Item(tr) && fr.Coll == tr.Coll {
		return false
	}
	if fr.Coll != tr.Coll {
		return true
	}
	col := &to.Plan.Collections[tr.Coll]
	max := to.limits().MaxFieldChars
	for i := range col.Fields {
		f := &col.Fields[i]
		ov, nv := prune.Lookup(from.Item(fr), f.From), prune.Lookup(to.Item(tr), f.From)
		if !jsonval.Same(ov, nv) && changeShows(f, ov, nv, max) {
			return true
		}
	}
	return false
}

// changeShows reports whether field f, whose value went from ov to nv (not
// written the same: a token stands for a value as written), shows
// differently. A value cut both times shows as null whatever
// the reason; a value that appeared or went shows; an alias or placeholder
// changes with its value (compared without minting a token nobody would
// see); a plain or masked value shows when its projection changed.
func changeShows(f *manifest.Field, ov, nv *jsonval.Value, max int) bool {
	if prune.IsCut(ov) && prune.IsCut(nv) {
		return false
	}
	if ov == nil || nv == nil || tokenized(f) {
		return true
	}
	var was, now wire.Record
	field(&was, f, ov, max, nil) // plain and mask take no keyer
	field(&now, f, nv, max, nil)
	return string(wire.Encode(&was)) != string(wire.Encode(&now))
}

// tokenized reports whether field f shows as a token (alias or placeholder).
func tokenized(f *manifest.Field) bool {
	return f.Expose == manifest.Alias || f.Expose == manifest.Placeholder
}

// keepNames keeps the names that are keys of m.
func keepNames(names []string, m wire.Members) []string {
	var out []string
	for _, n := range names {
		for _, kv := range m {
			if kv.Key == n {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// keepCounts keeps the counts of keys still in m.
func keepCounts(c wire.Counts, m wire.Members) wire.Counts {
	var out wire.Counts
	for _, x := range c {
		for _, kv := range m {
			if kv.Key == x.Key {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// availability appends the capabilities whose availability flipped to c,
// at most maxUnavailable to each list, and returns the number of flips and
// how many of them it listed.
func availability(from, to *Snapshot, same bool, c *wire.AfterCapabilities) (flips, listed int) {
	p, max := to.Plan, to.limits().MaxUnavailable
	flip := func(ci int, fr, tr *Rec) {
		was := from.Unavailable(ci, fr) == ""
		reason := to.Unavailable(ci, tr)
		if was == (reason == "") {
			return
		}
		flips++
		id := ""
		if tr != nil {
			id = tr.ID
		}
		switch {
		case reason == "" && len(c.Available) < max:
			c.Available = append(c.Available, wire.Available{Capability: p.Capabilities[ci].Name, Record: id})
		case reason != "" && len(c.Unavailable) < max:
			c.Unavailable = append(c.Unavailable, wire.Unavailable{Capability: p.Capabilities[ci].Name, Record: id, Reason: reason})
		default:
			return
		}
		listed++
	}
	active := func(ci int) bool { return from.CapabilityActive(ci) && to.CapabilityActive(ci) }
	// A record whose item is shared by both snapshots (a patch did not touch
	// it) can only flip through a store path that a rule reads.
	stable := make([]bool, len(p.Capabilities))
	for ci := range p.Capabilities {
		stable[ci] = true
		for _, r := range p.Capabilities[ci].Unavailable {
			stable[ci] = stable[ci] && !condChanged(r.When, from, to)
		}
	}
	for ci := range p.Capabilities {
		if !p.Capabilities[ci].Record && active(ci) {
			flip(ci, nil, nil)
		}
	}
	for i := range to.Records {
		tr := &to.Records[i]
		j, ok := i, same
		if !same {
			j, ok = from.ByID[tr.ID]
		}
		if !ok {
			continue
		}
		fr := &from.Records[j]
		shared := from.Item(fr) == to.Item(tr)
		for ci := range p.Capabilities {
			if shared && stable[ci] {
				continue
			}
			if p.Capabilities[ci].Record && active(ci) && p.AppliesTo(ci, tr.Coll) && p.AppliesTo(ci, fr.Coll) {
				flip(ci, fr, tr)
			}
		}
	}
	return flips, listed
}

// condChanged reports whether a store path (not a record field) that the
// condition reads has a different value in the two snapshots.
func condChanged(c *manifest.Cond, from, to *Snapshot) bool {
	if c == nil {
		return false
	}
	for _, sub := range c.Sub {
		if condChanged(sub, from, to) {
			return true
		}
	}
	return len(c.Sub) == 0 && !c.Field && changedAt(c.Ptr, from, to)
}

// newFeedback returns the feedback items of to that from did not have,
// bounded by maxFeedback, and how many there are.
func newFeedback(from, to *Snapshot) ([]wire.Feedback, int) {
	out := []wire.Feedback{}
	f := to.Plan.Feedback
	if f == nil {
		return out, 0
	}
	seen := map[string]int{}
	eachFeedback(from, f, func(key string, _ wire.Feedback) { seen[key]++ })
	total, max := 0, to.limits().MaxFeedback
	eachFeedback(to, f, func(key string, fb wire.Feedback) {
		if seen[key] > 0 {
			seen[key]--
			return
		}
		total++
		if len(out) < max {
			out = append(out, fb)
		}
	})
	return out, total
}

// eachFeedback calls fn for every feedback item of s that has a text,
// projected as describe projects it, with a key made of that projection: an
// item that changed only where the agent cannot see it (behind "[redacted]",
// past the truncation) has the same key, and is not new.
func eachFeedback(s *Snapshot, f *manifest.Feedback, fn func(key string, fb wire.Feedback)) {
	arr := f.From.Resolve(s.Root)
	if arr == nil || arr.Kind != jsonval.Array {
		return
	}
	max := s.limits().MaxFieldChars
	for _, it := range arr.Items {
		t := f.Text.Resolve(it)
		if t == nil || t.Kind != jsonval.String {
			continue
		}
		fb := feedbackItem(f, it, max)
		fn(fb.Level+"\x00"+fb.Source+"\x00"+strconv.FormatBool(fb.Redacted)+"\x00"+strconv.Itoa(fb.Truncated)+"\x00"+fb.Text, fb)
	}
}

// feedbackItem projects one feedback item that has a text, as describe
// does.
func feedbackItem(f *manifest.Feedback, it *jsonval.Value, max int) wire.Feedback {
	fb := wire.Feedback{Level: "info", Source: "app"}
	if f.Level != nil {
		fb.Level = oneOf(f.Level.Resolve(it), levels, "info")
	}
	if f.Source != nil {
		fb.Source = oneOf(f.Source.Resolve(it), sources, "unknown")
	}
	t := f.Text.Resolve(it)
	if expose.IsCredential(t.S) {
		fb.Text, fb.Redacted = expose.Redacted, true
	} else {
		text, n, cut := expose.Truncate(expose.Clean(t.S), max)
		fb.Text = text
		if cut {
			fb.Truncated = n
		}
	}
	return fb
}
