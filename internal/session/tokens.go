package session

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/project"
	"github.com/pinholectx/pinhole/internal/wire"
)

// resolveTokens resolves the tokens in the token slots of capability ci's
// input for the app's handler, and rejects tokens anywhere else (see
// expose.ResolveTokens). A token resolves only if this session handed it
// out under the current scope and it stands for the value of the slot's
// field in the record that counts: the request's record (record scope), or
// a referenceable record of the capability's collections in the current
// snapshot (page scope, "record": "token"). It stands for the value as
// written (jsonval.Same): a value equal to it but written otherwise (1.0
// for 1, members in another order) has a token of its own, and a token
// that resolved for it would tell the agent an equality its tokens hide.
func (s *Session) resolveTokens(ci int, rec *project.Rec, input *jsonval.Value, sz *tokenSizes) (*jsonval.Value, *wire.Error) {
	cp := &s.plan.Capabilities[ci]
	slots := make([]expose.Slot, len(cp.Slots))
	for i := range cp.Slots {
		slots[i] = cp.Slots[i].ExposeSlot()
	}
	resolved, err := expose.ResolveTokens(input, slots, func(i int, token string) (*jsonval.Value, bool) {
		v, ok := s.keyer.Resolve(token)
		if !ok {
			return nil, false
		}
		slot := &cp.Slots[i]
		if !slot.ByToken {
			if rec == nil || !jsonval.Same(s.fieldValue(rec, slot), v) {
				return nil, false
			}
			sz.add(v)
			return v, true
		}
		for j := range s.snap.Records {
			r := &s.snap.Records[j]
			if s.plan.AppliesTo(ci, r.Coll) && jsonval.Same(s.fieldValue(r, slot), v) {
				sz.add(v)
				return v, true
			}
		}
		return nil, false
	})
	if err == nil && sz.tooLong {
		err = wire.NewError(wire.CodeInvalidInput, "a value behind a token is longer than "+strconv.Itoa(sz.budget)+
			" bytes as JSON, the manifest's share of maxResponseBytes for one token; the module passes on no value that long", "input")
	}
	return resolved, err
}

// fieldValue returns the value of the slot's field in record r, or nil
// when r's collection does not declare it with the slot's mode or the
// record has no value there.
func (s *Session) fieldValue(r *project.Rec, slot *manifest.TokenSlot) *jsonval.Value {
	for _, f := range s.plan.Collections[r.Coll].Fields {
		if f.Name == slot.Field && f.Expose == slot.Expose {
			return f.From.Resolve(s.snap.Item(r))
		}
	}
	return nil
}
