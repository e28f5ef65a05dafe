package session

import (
	"bytes"

	"github.com/pinholectx/pinhole/internal/wire"
)

// maxAuditEvents bounds the audit queue; older events are dropped and
// counted when nobody drains it.
const maxAuditEvents = 1024

type auditLog struct {
	events  []wire.AuditEvent
	dropped int
}

// record notes one operation: the operation, the snapshot, counts, field
// and capability names (the manifest's), byte sizes and the error code,
// never a value. The response is only inspected for its error code.
func (a *auditLog) record(ev wire.AuditEvent, resp []byte) {
	if ev.Op == "audit" {
		return
	}
	if bytes.HasPrefix(resp, []byte(`{"error":{"code":"`)) {
		rest := resp[len(`{"error":{"code":"`):]
		if i := bytes.IndexByte(rest, '"'); i > 0 {
			ev.Error = string(rest[:i])
		}
	}
	if len(a.events) >= maxAuditEvents {
		a.events = a.events[1:]
		a.dropped++
	}
	if a.events == nil {
		// Room for the first few events at once, rather than growing
		// through 1, 2 and 4 (every allocation of a start counts:
		// BENCHMARKS.md, "Tier-up budgets at start-up").
		a.events = make([]wire.AuditEvent, 0, 8)
	}
	a.events = append(a.events, ev)
}

func (a *auditLog) drain() []byte {
	out := wire.Encode(&wire.Audit{Events: append([]wire.AuditEvent{}, a.events...), Dropped: a.dropped})
	a.events, a.dropped = a.events[:0], 0
	return out
}
