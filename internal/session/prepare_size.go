package session

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/patch"
	"github.com/pinholectx/pinhole/internal/wire"
)

// TokenBudget is what a prepare answer budgets for each token it resolves,
// and the most a value behind a token may take as JSON, for a manifest
// whose capabilities declare at most slots token slots each: three
// quarters of maxResponseBytes shared by those slots (the last quarter is
// for the agent's own input and the answer's envelope).
//
// A prepare answer is at most maxResponseBytes, and a token resolves to the
// value it stands for: every token slot may hold the token of the same
// large value, so a small input could otherwise ask for an answer many
// times its size. But whether an answer fits must not depend on the hidden
// values, or the agent, padding its own input, learns the length of the
// value behind a token one refusal at a time. So the answer is judged on
// what the agent knows: its own input, the envelope, and the budget per
// token resolved. The only thing a hidden value decides is whether it is
// longer than the budget: one threshold per manifest, which the agent
// cannot move (a budget per capability would give one threshold per slot
// count, and a field that capabilities of different slot counts take
// would show which bucket its length falls in). Since slots cannot repeat
// (none sits inside an array), an input that fills every slot of a
// capability still has the last quarter for itself.
func TokenBudget(maxResponseBytes, slots int) int {
	return (maxResponseBytes - maxResponseBytes/4) / max(slots, 1)
}

// tokenSizes counts the tokens a prepare resolves and the encoded length of
// the values they stand for.
type tokenSizes struct {
	budget  int  // TokenBudget of the manifest
	n       int  // tokens resolved
	bytes   int  // their values' encoded length, each at most budget
	tooLong bool // a value is longer than budget
}

// add counts one resolved value. Its length is counted up to the bound
// first, so that a huge value costs no more than the bound to measure.
func (t *tokenSizes) add(v *jsonval.Value) {
	t.n++
	if _, over := patch.SizeUpTo(v, t.budget); over {
		t.tooLong = true
		return
	}
	// patch.SizeUpTo counts strings at their length; escapes can add.
	n := len(jsonval.Marshal(v))
	if n > t.budget {
		t.tooLong = true
		return
	}
	t.bytes += n
}

// check refuses, before the answer is built, an input that the agent
// wrote (tokens as written) whose tokens' budget would not fit max.
func (t *tokenSizes) check(input *jsonval.Value, max int) *wire.Error {
	if _, over := patch.SizeUpTo(input, max-t.n*t.budget); over {
		return t.tooLarge(max)
	}
	return nil
}

// fitted returns a prepare answer, or the error when the answer with each
// resolved value counted at the budget would pass max. answer holds
// each resolved value in its own encoding, so the answer less their
// lengths is what the agent wrote, and the envelope: nothing hidden.
func (t *tokenSizes) fitted(answer []byte, max int) ([]byte, *wire.Error) {
	if len(answer)-t.bytes+t.n*t.budget > max {
		return nil, t.tooLarge(max)
	}
	return answer, nil
}

func (t *tokenSizes) tooLarge(max int) *wire.Error {
	return wire.NewError(wire.CodeInvalidInput, "the input, with "+strconv.Itoa(t.budget)+
		" bytes for each token it holds, exceeds maxResponseBytes ("+strconv.Itoa(max)+")", "")
}

// mostSlots is the most token slots a capability of the plan declares.
func mostSlots(p *manifest.Plan) int {
	n := 0
	for i := range p.Capabilities {
		n = max(n, len(p.Capabilities[i].Slots))
	}
	return n
}
