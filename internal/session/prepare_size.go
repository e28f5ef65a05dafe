package session

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// inputFits refuses a prepare input that, with its tokens resolved, would
// pass max bytes as JSON. A token resolves to the value it stands for, and
// every token slot of a capability may hold the token of the same large
// value, so a small input could otherwise ask for an answer many thousand
// times its size. Strings count at their length
// (escapes can only add), and the count stops as soon as it passes max, so
// checking costs at most max steps however often a value repeats.
func inputFits(v *jsonval.Value, max int) *wire.Error {
	n := 0
	var over func(v *jsonval.Value) bool
	over = func(v *jsonval.Value) bool {
		switch v.Kind {
		case jsonval.String:
			n += len(v.S) + 2
		case jsonval.Number:
			n += len(v.S)
		case jsonval.Array:
			n += 1 + max1(len(v.Items))
			for _, it := range v.Items {
				if over(it) {
					return true
				}
			}
		case jsonval.Object:
			n += 1 + max1(len(v.Keys))
			for i, k := range v.Keys {
				n += len(k) + 3
				if over(v.Vals[i]) {
					return true
				}
			}
		default:
			n += 4
		}
		return n > max
	}
	if v != nil && over(v) {
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

// max1 is n, or 1 for an empty container (its closing bracket).
func max1(n int) int {
	if n == 0 {
		return 1
	}
	return n
}
