package session

import (
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/project"
	"github.com/pinholectx/pinhole/internal/wire"
)

// prepare checks an execution request against the current snapshot and
// resolves its placeholders and aliases for the application's handler
// (docs/protocol.md#prepare).
func (s *Session) prepare(v *jsonval.Value) ([]byte, *wire.Error) {
	if s.plan == nil || s.snap == nil {
		return nil, wire.NewError(wire.CodeNotLoaded, "load a manifest and observe a state before prepare", "")
	}
	var name, record, since *jsonval.Value
	input := jsonval.NewObject()
	for i, k := range v.Keys {
		switch k {
		case "op":
		case "capability":
			name = v.Vals[i]
		case "record":
			record = v.Vals[i]
		case "input":
			input = v.Vals[i]
		case "snapshot":
			since = v.Vals[i]
		default:
			return nil, UnknownParam("prepare", k, "capability, record, input and snapshot")
		}
	}
	if s.withheld {
		return nil, s.errWithheld()
	}
	if name == nil || name.Kind != jsonval.String {
		return nil, wire.NewError(wire.CodeInvalidRequest, "prepare needs a capability name", "capability")
	}
	ci := s.plan.CapabilityIndex(name.S)
	if ci < 0 || !s.snap.CapabilityActive(ci) {
		// One answer for both: whether a capability exists outside the
		// active regions cannot be probed.
		return nil, errUnknownCapability()
	}
	cp := &s.plan.Capabilities[ci]
	s.ev.Capability = cp.Name // the manifest's name, never the caller's text
	var rec *project.Rec
	switch {
	case cp.Record && record == nil:
		return nil, wire.NewError(wire.CodeInvalidRequest, "a record-scope capability needs a record id", "record")
	case !cp.Record && record != nil:
		return nil, wire.NewError(wire.CodeInvalidRequest, "a page-scope capability takes no record", "record")
	case cp.Record:
		rec = s.record(record, ci)
		if rec == nil {
			return nil, wire.NewError(wire.CodeUnknownRecord, "record is not a referenceable record id for this capability", "record")
		}
	}
	if since != nil {
		if since.Kind != jsonval.String {
			return nil, wire.NewError(wire.CodeInvalidRequest, "snapshot must be a snapshot id string", "snapshot")
		}
		if e := s.stale(since.S, ci, rec); e != nil {
			return nil, e
		}
	}
	if reason := s.snap.Unavailable(ci, rec); reason != "" {
		// The reason is the application's text from the manifest.
		return nil, wire.NewError(wire.CodeCapabilityUnavailable, reason, "capability")
	}
	// The schema judges the input as the agent wrote it; a slot holds a
	// token there, which resolution checks. Nothing walks a resolved
	// value: it is the store's data behind a token, and an error that
	// judged it would describe it.
	if e := cp.CheckInput(input); e != nil {
		return nil, e
	}
	max := s.plan.Limits.MaxResponseBytes
	sz := tokenSizes{budget: TokenBudget(max, mostSlots(s.plan))}
	resolved, err := s.resolveTokens(ci, rec, input, &sz)
	if err != nil {
		return nil, err
	}
	if e := sz.check(input, max); e != nil {
		return nil, e
	}
	if e := cp.CheckResolved(resolved); e != nil {
		return nil, e
	}
	out := wire.Prepared{OK: true, Snapshot: s.id, Capability: cp.Name, Input: jsonval.Marshal(resolved)}
	if rec != nil {
		out.Record = rec.ID
	}
	return sz.fitted(wire.Encode(&out), max)
}

// errUnknownCapability is the answer for a capability that is not declared
// or whose region is not active.
func errUnknownCapability() *wire.Error {
	return wire.NewError(wire.CodeUnknownCapability, "no capability of that name is offered in the active regions", "capability")
}

// record returns the referenceable record v names, if capability ci applies
// to it.
func (s *Session) record(v *jsonval.Value, ci int) *project.Rec {
	id, ok := project.RecordID(v)
	if !ok {
		return nil
	}
	j, ok := s.snap.ByID[id]
	if !ok || !s.plan.AppliesTo(ci, s.snap.Records[j].Coll) {
		return nil
	}
	return &s.snap.Records[j]
}

// stale reports stale_snapshot when the agent's snapshot is not the current
// one and what the request touches changed since: the record's declared
// data, or the capability's availability. An older snapshot whose touched
// parts are unchanged is accepted.
func (s *Session) stale(id string, ci int, rec *project.Rec) *wire.Error {
	if id == s.id {
		return nil
	}
	old := s.history.get(id)
	if old == nil {
		return wire.NewError(wire.CodeStaleSnapshot, "the snapshot is no longer held; describe again", "snapshot")
	}
	changed := wire.NewError(wire.CodeStaleSnapshot, "what this request touches changed since the snapshot; describe again", "snapshot")
	// A snapshot of another session scope is stale whatever changed: its
	// tokens resolve no more, and comparing its records' hidden values
	// with this scope's would tell which are equal.
	if !old.CapabilityActive(ci) || old.Scope != s.snap.Scope {
		return changed
	}
	var oldRec *project.Rec
	if rec != nil {
		j, ok := old.ByID[rec.ID]
		if !ok {
			return changed
		}
		oldRec = &old.Records[j]
		// What the agent saw of the record, not its whole declared item:
		// a hidden value that changed must not show as a stale snapshot.
		if project.RecordChanged(oldRec, rec, old, s.snap) {
			return changed
		}
	}
	if old.Unavailable(ci, oldRec) != s.snap.Unavailable(ci, rec) {
		return changed
	}
	return nil
}
