package project

import (
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// fit completes a describe response (window counts, unavailable entries)
// and keeps it within maxResponseBytes. When it would not fit, it shortens,
// in the order docs/protocol.md#bounds gives: records from the end of the window, then
// recordIds, feedback and unavailable entries, each to the longest prefix
// that fits (found by binary search, so a response over the cap costs a few
// extra encodings and one under it costs none). One record of a window is
// kept while the rest shrinks; if it is too large even with every list
// emptied, its largest values are dropped to null (listed in truncated),
// and if even that does not fit it is skipped (the window's skipped), so
// next always advances. Totals stay exact; the window's returned and next
// say what was dropped. If even the request-independent part (page,
// regions, state, capabilities) does not fit, the answer is a
// state_too_large error rather than a longer response.
func fit(resp *wire.Describe, recs []*Rec, req Request, s *Snapshot) ([]byte, *wire.Error) {
	ctx := &resp.Context
	lim := s.limits()
	maxBytes := lim.MaxResponseBytes
	allRecords, allIds, allFeedback := ctx.Records, ctx.RecordIds, ctx.Feedback
	var allUnavailable []wire.Unavailable
	nUnavailable := lim.MaxUnavailable

	setRecords := func(n int) {
		ctx.Records = allRecords[:n]
		allUnavailable = s.unavailable(recs[:n])
		ctx.UnavailableTotal = len(allUnavailable)
		ctx.Unavailable = allUnavailable[:min(len(allUnavailable), nUnavailable)]
		if w := ctx.RecordWindow; w != nil {
			w.Returned, w.Next = n, nil
			if next := w.Offset + n; next < w.Total {
				w.Next = &next
			}
		}
	}
	setRecords(len(allRecords))
	out := wire.Encode(resp)
	if len(out) <= maxBytes {
		return out, nil
	}
	if ctx.RecordWindow == nil {
		// Records cut for size are never hidden: the answer gets a window,
		// over the selection when the caller chose records by id.
		ctx.RecordWindow = &wire.Window{Offset: req.Offset, Limit: req.Limit, Total: len(s.Records)}
		if req.Record != nil {
			ctx.RecordWindow = &wire.Window{Limit: len(req.Record), Total: len(req.Record)}
		}
	}
	// Keep one record while the rest shrinks: a window that returns no
	// record would give a pager nothing to advance by.
	floor := min(1, len(allRecords))
	phases := []struct {
		n   int
		set func(int)
	}{
		{len(allRecords) - floor, func(n int) { setRecords(floor + n) }},
		{len(allIds), func(n int) { ctx.RecordIds = allIds[:n] }},
		{len(allFeedback), func(n int) { ctx.Feedback = allFeedback[:n] }},
		{len(ctx.Unavailable), func(n int) { nUnavailable = n; ctx.Unavailable = allUnavailable[:min(n, len(allUnavailable))] }},
	}
	run := func(n int, set func(int)) bool {
		// The longest prefix that fits; 0 when none does (then go on).
		k := sort.Search(n+1, func(k int) bool {
			set(n - k)
			return wire.EncodedLen(resp) <= maxBytes
		})
		if k > n {
			k = n
		}
		set(n - k)
		out = wire.Encode(resp)
		return len(out) <= maxBytes
	}
	if run(phases[0].n, phases[0].set) {
		return out, nil
	}
	lists := phases[1:]
	fitsAlone := func() bool { // the records fit with every list emptied
		for _, ph := range lists {
			ph.set(0)
		}
		ok := wire.EncodedLen(resp) <= maxBytes
		for _, ph := range lists {
			ph.set(ph.n)
		}
		return ok
	}
	if floor == 1 && !fitsAlone() {
		// The one record left is too large by itself: drop its largest
		// values to null, and when even that does not fit, skip it, with
		// next past it.
		rec := cutDown(allRecords[0])
		for j := largestField(&rec); j >= 0; j = largestField(&rec) {
			rec.Truncated = append(rec.Truncated, wire.Count{Key: rec.Fields[j].Key, N: originalLength(&rec, j)})
			rec.Fields[j].Value = nullJSON
			ctx.Records = []wire.Record{rec}
			if fitsAlone() {
				break
			}
		}
		if !fitsAlone() {
			setRecords(0)
			w := ctx.RecordWindow
			w.Skipped = 1
			if next := w.Offset + 1; next < w.Total {
				w.Next = &next
			}
		}
	}
	for _, ph := range lists {
		if run(ph.n, ph.set) {
			return out, nil
		}
	}
	return nil, wire.NewError(wire.CodeStateTooLarge, "the declared page, state and capabilities alone exceed maxResponseBytes ("+strconv.Itoa(maxBytes)+"); raise the limit or declare less", "maxResponseBytes")
}

// cutDown returns a copy of r whose field list and truncated report may be
// changed without touching r.
func cutDown(r wire.Record) wire.Record {
	r.Fields = append(wire.Members(nil), r.Fields...)
	r.Truncated = append(wire.Counts(nil), r.Truncated...)
	return r
}

// largestField returns the index of r's largest field value that is not
// null yet, or -1.
func largestField(r *wire.Record) int {
	best, size := -1, 0
	for i, f := range r.Fields {
		if string(f.Value) != "null" && len(f.Value) > size {
			best, size = i, len(f.Value)
		}
	}
	return best
}

// originalLength is the length in characters that the truncated report
// gives for field j of r when its value is dropped to fit: the original
// length when the value was already cut, otherwise the shown length.
func originalLength(r *wire.Record, j int) int {
	key := r.Fields[j].Key
	for i, c := range r.Truncated {
		if c.Key == key {
			r.Truncated = append(r.Truncated[:i], r.Truncated[i+1:]...)
			return c.N
		}
	}
	v := r.Fields[j].Value
	if pv, err := jsonval.Parse(v); err == nil && pv.Kind == jsonval.String {
		return utf8.RuneCountInString(pv.S)
	}
	return utf8.RuneCount(v)
}
