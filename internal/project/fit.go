package project

import (
	"sort"
	"strconv"

	"github.com/pinholectx/pinhole/internal/wire"
)

// fit completes a describe response (window counts, unavailable entries)
// and keeps it within maxResponseBytes. When it would not fit, it shortens,
// in the order DESIGN §4 gives: records from the end of the window, then
// recordIds, feedback and unavailable entries, each to the longest prefix
// that fits (found by binary search, so a response over the cap costs a few
// extra encodings and one under it costs none). Totals stay exact; the
// window's returned and next say what was dropped. If even the
// request-independent part (page, regions, state, capabilities) does not
// fit, the answer is a state_too_large error rather than a longer response.
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
	phases := []struct {
		n   int
		set func(int)
	}{
		{len(allRecords), setRecords},
		{len(allIds), func(n int) { ctx.RecordIds = allIds[:n] }},
		{len(allFeedback), func(n int) { ctx.Feedback = allFeedback[:n] }},
		{len(ctx.Unavailable), func(n int) { nUnavailable = n; ctx.Unavailable = allUnavailable[:min(n, len(allUnavailable))] }},
	}
	for _, ph := range phases {
		// The longest prefix that fits; 0 when none does (then go on).
		k := sort.Search(ph.n+1, func(k int) bool {
			ph.set(ph.n - k)
			return len(wire.Encode(resp)) <= maxBytes
		})
		if k > ph.n {
			k = ph.n
		}
		ph.set(ph.n - k)
		if out = wire.Encode(resp); len(out) <= maxBytes {
			return out, nil
		}
	}
	return nil, wire.Errorf(wire.CodeStateTooLarge, "maxResponseBytes",
		"the declared page, state and capabilities alone exceed maxResponseBytes ("+strconv.Itoa(maxBytes)+"); raise the limit or declare less")
}
