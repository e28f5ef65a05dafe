// Package expose decides what of a value may leave the module: masking,
// per-session aliases and placeholders, the credential safety net, the
// removal of invisible formatting characters, and cutting long text.
//
// Everything here works on single values and holds no state beyond the
// session key, so it can be tested in isolation.
package expose

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strings"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/wasm/jsonval"
)

// Redacted replaces a value that the credential safety net caught.
const Redacted = "[redacted]"

// Prefixes of the tokens the agent sees in place of protected values.
const (
	AliasPrefix       = "al_"
	PlaceholderPrefix = "ph_"
)

// Keyer derives aliases and placeholder tokens with a per-session key, so
// the same value gives the same token within a session and unlinkable ones
// across sessions. The agent cannot invert a token: it is a truncated
// HMAC-SHA256 of the value. The Keyer remembers the tokens it handed out so
// that prepare can resolve them for the app's handler, and only those.
type Keyer struct {
	key  []byte
	seen map[string]*jsonval.Value
}

// MaxTokens bounds how many handed-out tokens a Keyer remembers; past it the
// memory starts afresh (older tokens then no longer resolve).
const MaxTokens = 1 << 17

// NewKeyer returns a Keyer for the session key.
func NewKeyer(key []byte) *Keyer {
	return &Keyer{key: append([]byte(nil), key...), seen: map[string]*jsonval.Value{}}
}

var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func (k *Keyer) token(prefix string, v *jsonval.Value) string {
	m := hmac.New(sha256.New, k.key)
	m.Write([]byte(prefix))
	m.Write([]byte{0})
	m.Write(jsonval.Marshal(v))
	sum := m.Sum(nil)
	t := prefix + tokenEncoding.EncodeToString(sum[:15])
	if len(k.seen) >= MaxTokens {
		k.seen = map[string]*jsonval.Value{}
	}
	k.seen[t] = v
	return t
}

// Alias returns the alias of a value.
func (k *Keyer) Alias(v *jsonval.Value) string { return k.token(AliasPrefix, v) }

// Placeholder returns the placeholder token of a value.
func (k *Keyer) Placeholder(v *jsonval.Value) string { return k.token(PlaceholderPrefix, v) }

// Resolve returns the value behind a token this Keyer handed out.
func (k *Keyer) Resolve(token string) (*jsonval.Value, bool) {
	v, ok := k.seen[token]
	return v, ok
}

// Forget drops every remembered token, as when the session scope changes.
func (k *Keyer) Forget() { k.seen = map[string]*jsonval.Value{} }

// Mask returns a shape-preserving mask of s: an e-mail keeps its first
// character and its domain ("l***@example.com"), a number-like value keeps its
// last four digits ("•••• 4242"), anything else becomes "•••".
func Mask(s string) string {
	if at := strings.LastIndexByte(s, '@'); at > 0 && at < len(s)-1 && !strings.ContainsAny(s, " \t\n") {
		r, _ := utf8.DecodeRuneInString(s)
		return string(r) + "***@" + cleanDomain(s[at+1:])
	}
	digits := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case strings.IndexByte(" -+().", c) >= 0:
		default:
			return "•••"
		}
	}
	if len(digits) < 8 {
		return "•••"
	}
	return "•••• " + string(digits[len(digits)-4:])
}

func cleanDomain(d string) string {
	if len(d) > 64 || !utf8.ValidString(d) {
		return "•••"
	}
	return Clean(d)
}

// Clean removes characters that change how text reads without being seen:
// bidirectional overrides and isolates, zero-width characters and the byte
// order mark. Other control characters stay and are escaped by the JSON
// encoder.
func Clean(s string) string {
	i := 0
	for ; i < len(s); i++ {
		if s[i] >= 0xe2 { // all removed runes encode starting 0xe2 or 0xef
			break
		}
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if invisible(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func invisible(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200f: // zero-width space/joiners, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // bidi embeddings and overrides
		return true
	case r >= 0x2060 && r <= 0x2064: // word joiner, invisible operators
		return true
	case r >= 0x2066 && r <= 0x2069: // bidi isolates
		return true
	case r == 0xfeff: // byte order mark, zero-width no-break space
		return true
	}
	return false
}

// Truncate cuts s to at most max characters (Unicode code points). It
// returns the text, the original length in characters, and whether it cut.
func Truncate(s string, max int) (string, int, bool) {
	if len(s) <= max {
		return s, utf8.RuneCountInString(s), false
	}
	n, cut := 0, -1
	for i := range s {
		if n == max {
			cut = i
		}
		n++
	}
	if cut < 0 {
		return s, n, false
	}
	return s[:cut], n, true
}
