package project

import (
	"strconv"

	"github.com/pinholectx/pinhole/wasm/jsonval"
	"github.com/pinholectx/pinhole/wasm/wire"
)

// fit completes a describe response (window counts, unavailable entries)
// and keeps it within maxBytes. When it would not fit, it drops, in the
// order DESIGN §4 gives: records from the end of the window, then recordIds,
// feedback and unavailable entries from the end. Totals stay exact; the
// window's returned and next say what was dropped. If even the
// request-independent part (page, regions, state, capabilities) does not
// fit, the answer is a state_too_large error rather than a longer response.
func fit(resp *wire.Describe, recs []*Rec, req Request, s *Snapshot) ([]byte, *wire.Error) {
	ctx := &resp.Context
	lim := s.limits()
	maxBytes := lim.MaxResponseBytes
	all := ctx.Records
	nUnavail := lim.MaxUnavailable
	setRecords := func(n int) {
		ctx.Records = all[:n]
		un := s.unavailable(recs[:n])
		ctx.UnavailableTotal = len(un)
		if len(un) > nUnavail {
			un = un[:nUnavail]
		}
		ctx.Unavailable = un
		if w := ctx.RecordWindow; w != nil {
			w.Returned = n
			w.Next = nil
			if next := w.Offset + n; next < w.Total {
				w.Next = &next
			}
		}
	}
	setRecords(len(all))
	out := wire.Encode(resp)
	for len(out) > maxBytes {
		excess := len(out) - maxBytes
		switch {
		case len(ctx.Records) > 0:
			n := drop(len(ctx.Records), excess, func(i int) int { return len(wire.Encode(&ctx.Records[i])) + 1 })
			if ctx.RecordWindow == nil {
				// Records cut for size are never hidden: the answer gets a
				// window, over the selection when the caller chose records.
				ctx.RecordWindow = &wire.Window{Offset: req.Offset, Limit: req.Limit, Total: len(s.Records)}
				if req.Record != nil {
					ctx.RecordWindow = &wire.Window{Limit: len(req.Record), Total: len(req.Record)}
				}
			}
			setRecords(n)
		case len(ctx.RecordIds) > 0:
			ctx.RecordIds = ctx.RecordIds[:drop(len(ctx.RecordIds), excess, func(i int) int {
				return len(jsonval.AppendString(nil, ctx.RecordIds[i])) + 1
			})]
		case len(ctx.Feedback) > 0:
			ctx.Feedback = ctx.Feedback[:drop(len(ctx.Feedback), excess, func(i int) int {
				return len(wire.Encode(&ctx.Feedback[i])) + 1
			})]
		case len(ctx.Unavailable) > 0:
			nUnavail = drop(len(ctx.Unavailable), excess, func(i int) int {
				return len(wire.Encode(&ctx.Unavailable[i])) + 1
			})
			ctx.Unavailable = ctx.Unavailable[:nUnavail]
		default:
			return nil, wire.Errorf(wire.CodeStateTooLarge, "maxResponseBytes",
				"the declared page, state and capabilities alone exceed maxResponseBytes ("+strconv.Itoa(maxBytes)+"); raise the limit or declare less")
		}
		out = wire.Encode(resp)
	}
	return out, nil
}

// drop returns how many of n items to keep so that the sizes of the dropped
// ones (from the end) add up to at least excess.
func drop(n, excess int, size func(i int) int) int {
	for freed := 0; n > 0 && freed < excess; {
		n--
		freed += size(n)
	}
	return n
}
