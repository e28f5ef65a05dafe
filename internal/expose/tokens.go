package expose

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// tokenChars is the length of a token after its prefix: 15 bytes of
// HMAC-SHA256 in unpadded base32.
const tokenChars = 24

// PlaceholderKey is the one member of a placeholder object.
const PlaceholderKey = "$placeholder"

// A Slot is a place in a capability's input that takes a token: the JSON
// Pointer of an object member of the input, and the kind of token it takes
// (AliasPrefix: an "al_…" string; PlaceholderPrefix: a {"$placeholder":
// "ph_…"} object).
type Slot struct {
	At     jsonval.Pointer
	Prefix string
}

// ResolveTokens returns input with the token in each slot replaced by the
// value resolve returns for it. resolve is called with the slot's index and
// the token, and decides whether the token stands, there, for a value the
// caller may receive (in Pinhole: a value of the declared field of the
// record the request acts on).
//
// Every failure is an invalid_input error whose Param is the JSON Pointer
// of the property in the input; messages never quote the input. A slot
// holding anything but a token of its kind fails; a token resolve refuses
// fails, with one message whatever the reason (unknown, expired, another
// record's), so the answer tells nothing about the token. Outside the slots
// nothing that looks like a token is allowed: a string or member name
// holding an "al_…" or "ph_…" token, or an object with a "$placeholder"
// member, is rejected, never resolved and never passed on.
//
// The containers on the way to a replaced value are copied; everything
// else is shared with input, which is never modified. A nil input is
// returned as it is.
func ResolveTokens(input *jsonval.Value, slots []Slot, resolve func(slot int, token string) (*jsonval.Value, bool)) (*jsonval.Value, *wire.Error) {
	if input == nil {
		return nil, nil
	}
	r := resolver{slots: slots, resolve: resolve}
	return r.walk(input)
}

// resolver walks an input, keeping the path to the current value.
type resolver struct {
	slots   []Slot
	resolve func(int, string) (*jsonval.Value, bool)
	path    jsonval.Pointer
	// arrays counts the arrays around the current value. A slot is an
	// object member (the load refuses one under items), so nothing inside
	// an array is one, whatever its index reads as: {"0": …} is declared,
	// ["…"] is not.
	arrays int
}

// tokenError reports a fault at a place of the input. The member names
// are the caller's own, but an error is bounded like any answer: a name
// Nameable refuses is left out, and the member holding it is named instead.
func tokenError(at jsonval.Pointer, msg string) *wire.Error {
	inside := ""
	for i, tok := range at {
		if !Nameable(tok) {
			at, inside = at[:i], " (a member inside)"
			break
		}
	}
	p := at.String()
	return wire.NewError(wire.CodeInvalidInput, "input"+p+inside+": "+msg, p)
}

// Nameable reports whether an error may repeat a member name the caller
// wrote: at most MaxErrorName characters, nothing Clean removes (invisible
// and control characters, which every answer is cleaned of), and not
// shaped like a credential.
func Nameable(name string) bool {
	return utf8.RuneCountInString(name) <= MaxErrorName && Clean(name) == name && !IsCredential(name)
}

// MaxErrorName bounds a member name an input error repeats.
const MaxErrorName = 128

// slotAt returns the index of the slot at the current path, or -1.
func (r *resolver) slotAt() int {
	if len(r.path) == 0 || r.arrays > 0 {
		return -1
	}
next:
	for i, s := range r.slots {
		if len(s.At) != len(r.path) {
			continue
		}
		for j := range s.At {
			if s.At[j] != r.path[j] {
				continue next
			}
		}
		return i
	}
	return -1
}

func (r *resolver) walk(v *jsonval.Value) (*jsonval.Value, *wire.Error) {
	if i := r.slotAt(); i >= 0 {
		return r.slot(i, v)
	}
	switch v.Kind {
	case jsonval.String:
		if hasShownToken(v.S) {
			return nil, tokenError(r.path, "holds a token outside a token slot; tokens are accepted only where the input schema declares x-pinhole-token")
		}
		return v, nil
	case jsonval.Array:
		var out *jsonval.Value
		r.arrays++
		defer func() { r.arrays-- }()
		for i, it := range v.Items {
			r.path = append(r.path, strconv.Itoa(i))
			nv, err := r.walk(it)
			if err != nil {
				return nil, err
			}
			r.path = r.path[:len(r.path)-1]
			if nv != it && out == nil {
				out = &jsonval.Value{Kind: jsonval.Array, Items: append([]*jsonval.Value(nil), v.Items...)}
			}
			if out != nil {
				out.Items[i] = nv
			}
		}
		if out == nil {
			return v, nil
		}
		return out, nil
	case jsonval.Object:
		for _, k := range v.Keys {
			if k == PlaceholderKey {
				return nil, tokenError(r.path, "is a placeholder object outside a token slot; placeholders are accepted only where the input schema declares x-pinhole-token")
			}
			if hasShownToken(k) {
				return nil, tokenError(r.path, "has a member name holding a token; tokens are accepted only as values of token slots")
			}
		}
		var out *jsonval.Value
		for i, it := range v.Vals {
			r.path = append(r.path, v.Keys[i])
			nv, err := r.walk(it)
			if err != nil {
				return nil, err
			}
			r.path = r.path[:len(r.path)-1]
			if nv != it && out == nil {
				out = &jsonval.Value{Kind: jsonval.Object, Keys: append([]string(nil), v.Keys...),
					Vals: append([]*jsonval.Value(nil), v.Vals...)}
			}
			if out != nil {
				out.Vals[i] = nv
			}
		}
		if out == nil {
			return v, nil
		}
		return out, nil
	}
	return v, nil
}

// slot resolves the value at slot i.
func (r *resolver) slot(i int, v *jsonval.Value) (*jsonval.Value, *wire.Error) {
	s := r.slots[i]
	token := ""
	switch s.Prefix {
	case AliasPrefix:
		if v.Kind != jsonval.String || !IsToken(v.S, AliasPrefix) {
			return nil, tokenError(r.path, "takes an alias (al_…) from the latest describe")
		}
		token = v.S
	case PlaceholderPrefix:
		if v.Kind != jsonval.Object || len(v.Keys) != 1 || v.Keys[0] != PlaceholderKey ||
			v.Vals[0].Kind != jsonval.String || !IsToken(v.Vals[0].S, PlaceholderPrefix) {
			return nil, tokenError(r.path, `takes a placeholder object {"$placeholder": "ph_…"} from the latest describe`)
		}
		token = v.Vals[0].S
	default:
		return nil, tokenError(r.path, "is a token slot of an unknown kind")
	}
	real, ok := r.resolve(i, token)
	if !ok {
		return nil, tokenError(r.path, "is not a token this slot accepts now: the declared field's token of the record the slot refers to, from this session's latest describe")
	}
	return real, nil
}

// IsToken reports whether s is exactly a token with the given prefix: the
// prefix and 24 characters of the token alphabet.
func IsToken(s, prefix string) bool {
	return len(s) == len(prefix)+tokenChars && strings.HasPrefix(s, prefix) && tokenRun(s[len(prefix):]) == tokenChars
}

// hasShownToken reports whether s holds a token as it would be shown:
// also after Clean removes the invisible characters that split it
// ("al_\u200b…"), which a describe of the text, once the app stores it,
// would join into a real-looking token.
func hasShownToken(s string) bool {
	return HasToken(s) || HasToken(Clean(s))
}

// HasToken reports whether s holds an alias or placeholder token, alone or
// inside text: "al_" or "ph_" followed by 24 characters of the token
// alphabet, with neither a letter, a digit nor "_" right before it or
// right after it. Any letter case counts, so a token shouted in capitals
// is still one.
func HasToken(s string) bool {
	for i := 0; i+3+tokenChars <= len(s); i++ {
		if s[i+2] != '_' {
			continue
		}
		p := string([]byte{asciiLower(s[i]), asciiLower(s[i+1]), '_'})
		if p != AliasPrefix && p != PlaceholderPrefix {
			continue
		}
		if i > 0 && tokenNeighbour(s[i-1]) {
			continue
		}
		rest := s[i+3:]
		n := 0
		for n < tokenChars && tokenChar(asciiLower(rest[n])) {
			n++
		}
		if n != tokenChars {
			continue
		}
		if len(rest) > tokenChars && tokenNeighbour(rest[tokenChars]) {
			continue
		}
		return true
	}
	return false
}

// tokenRun counts the leading characters of s in the token alphabet
// (a–z, 2–7).
func tokenRun(s string) int {
	n := 0
	for n < len(s) && tokenChar(s[n]) {
		n++
	}
	return n
}

func tokenChar(c byte) bool { return c >= 'a' && c <= 'z' || c >= '2' && c <= '7' }

// asciiLower lower-cases an ASCII letter.
func asciiLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// tokenNeighbour reports whether c, next to a token shape, makes it part of
// a longer word rather than a token.
func tokenNeighbour(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
