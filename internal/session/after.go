package session

import (
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/project"
	"github.com/pinholectx/pinhole/internal/wire"
)

// after answers what changed since the snapshot an agent saw: the records,
// state, availability and feedback that differ, projected like describe,
// and whether the agent must describe again.
func (s *Session) after(v *jsonval.Value) ([]byte, *wire.Error) {
	if s.plan == nil || s.snap == nil {
		return nil, wire.NewError(wire.CodeNotLoaded, "load a manifest and observe a state before after", "")
	}
	var since *jsonval.Value
	for i, k := range v.Keys {
		switch k {
		case "op":
		case "since":
			since = v.Vals[i]
		default:
			return nil, UnknownParam("after", k, "since")
		}
	}
	if s.withheld {
		return nil, s.errWithheld()
	}
	if since == nil || since.Kind != jsonval.String {
		return nil, wire.NewError(wire.CodeInvalidRequest, "after needs since, the snapshot id the caller saw", "since")
	}
	old := s.history.get(since.S)
	if old == nil {
		return nil, wire.NewError(wire.CodeStaleSnapshot, "the snapshot is no longer held; a redescribe is required", "since")
	}
	var st project.Stats
	out, e := project.After(old, s.snap, s.keyer, since.S, s.id, &st)
	s.audited(st)
	return out, e
}
