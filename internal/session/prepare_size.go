package session

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/patch"
	"github.com/pinholectx/pinhole/internal/wire"
)

// inputFits refuses a prepare input that, with its tokens resolved, would
// pass max bytes as JSON. A token resolves to the value it stands for, and
// every token slot of a capability may hold the token of the same large
// value, so a small input could otherwise ask for an answer many thousand
// times its size. It is measured as patch.Size measures (strings at their
// length: escapes can only add), and the count stops as soon as it passes max, so
// checking costs at most max steps however often a value repeats.
func inputFits(v *jsonval.Value, max int) *wire.Error {
	if v == nil {
		return nil
	}
	if _, over := patch.SizeUpTo(v, max); over {
		return tooLarge(max)
	}
	return nil
}

// fitted returns a prepare answer that fits max bytes, or the error: the
// answer is the input plus a few members, and escapes can lengthen it, so
// the count above is checked once more on the bytes.
func fitted(answer []byte, max int) ([]byte, *wire.Error) {
	if len(answer) > max {
		return nil, tooLarge(max)
	}
	return answer, nil
}

func tooLarge(max int) *wire.Error {
	return wire.NewError(wire.CodeInvalidInput, "the input, with its tokens resolved, exceeds maxResponseBytes ("+strconv.Itoa(max)+")", "")
}
