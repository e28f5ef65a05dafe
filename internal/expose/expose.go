// Package expose decides what of a value may leave the module: masking,
// per-session aliases and placeholders, the credential safety net, the
// removal of invisible formatting characters, and cutting long text. It
// also resolves the tokens an agent hands back, in declared slots only
// (tokens.go).
//
// Everything here works on single values and holds no state beyond the
// session key, so it can be tested in isolation.
package expose

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/jsonval"
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
	key   []byte
	scope []byte // canonical JSON of the session scope value
	// scopes counts the scope changes: the tokens of one scope mean nothing
	// in another (Scope).
	scopes int
	// seen and older are two generations of handed-out tokens: when seen
	// fills up it becomes older, so recent tokens always resolve.
	seen, older map[string]*jsonval.Value
}

// MaxTokens bounds each of the two generations of handed-out tokens a Keyer
// remembers; a token stops resolving once two newer generations filled up.
const MaxTokens = 1 << 17

// NewKeyer returns a Keyer for the session key.
func NewKeyer(key []byte) *Keyer {
	// The token maps are made when the first token is handed out: a load
	// allocates as little as it can (BENCHMARKS.md, "Tier-up budgets at
	// start-up").
	return &Keyer{key: append([]byte(nil), key...)}
}

func (k *Keyer) token(prefix string, v *jsonval.Value) string {
	sum := hmacSHA256(k.key, []byte(prefix), []byte{0}, k.scope, []byte{0}, jsonval.Marshal(v))
	t := string(appendBase32(append(make([]byte, 0, len(prefix)+tokenChars), prefix...), sum[:15]))
	if k.seen == nil || len(k.seen) >= MaxTokens {
		k.older, k.seen = k.seen, map[string]*jsonval.Value{}
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
	if v, ok := k.seen[token]; ok {
		return v, true
	}
	v, ok := k.older[token]
	return v, ok
}

// SetScope keys tokens to a session scope (tenant, account, user: the
// manifest's sessionScope value, as canonical JSON). A new scope gives every
// value new tokens, unlinkable to the old ones, and forgets the old tokens,
// so they stop resolving.
func (k *Keyer) SetScope(scope []byte) {
	if string(scope) == string(k.scope) {
		return
	}
	k.scope = append([]byte(nil), scope...)
	k.seen, k.older = nil, nil
	k.scopes++
}

// Scope numbers the current session scope: it changes whenever SetScope
// changes the scope. Two projections made under different numbers share
// no token, so nothing compares their protected values.
func (k *Keyer) Scope() int { return k.scopes }

// Mask returns a shape-preserving mask of s: an e-mail keeps its first
// character and its domain ("l***@example.com"), a number-like value keeps its
// last four digits ("•••• 4242"), anything else becomes "•••".
func Mask(s string) string {
	s = Clean(s)
	if at := strings.LastIndexByte(s, '@'); at > 0 && at < len(s)-1 && strings.IndexFunc(s, unicode.IsSpace) < 0 {
		// Only an e-mail address keeps its first character: a value with
		// an "@" but no host name after it ("Summer@2024.05") is "•••"
		// whole, like any other.
		d := cleanDomain(s[at+1:])
		if d == "•••" {
			return d
		}
		r, _ := utf8.DecodeRuneInString(s)
		return string(r) + "***@" + d
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

// cleanDomain keeps a domain that is a host name (RFC 1123): at most 64
// bytes, two labels or more, each of 1 to 63 letters, digits and hyphens,
// neither starting nor ending with a hyphen, the last one letters only (or
// an IDN's "xn--" form). Anything else after an "@" is not an e-mail
// address, and showing it could show a secret: a URL's host and path, or
// the tail of a password such as "Summer@2024.05".
func cleanDomain(d string) string {
	if len(d) > 64 {
		return "•••"
	}
	labels, start := 0, 0
	for i := 0; i <= len(d); i++ {
		if i < len(d) && d[i] != '.' {
			c := d[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return "•••"
			}
			continue
		}
		l := d[start:i]
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return "•••"
		}
		labels, start = labels+1, i+1
		if i == len(d) && !topLabel(l) {
			return "•••"
		}
	}
	if labels < 2 {
		return "•••"
	}
	return d
}

// topLabel reports whether l can be a top-level domain: letters only, or
// an internationalised one's "xn--" form.
func topLabel(l string) bool {
	if len(l) > 4 && strings.EqualFold(l[:4], "xn--") {
		return true
	}
	for i := 0; i < len(l); i++ {
		if c := l[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return len(l) >= 2
}

// Clean removes characters that change how text reads without being seen,
// or that terminals and renderers treat as controls: every Unicode
// Default_Ignorable_Code_Point (zero-width characters and joiners, bidi
// marks, embeddings, overrides and isolates, the soft hyphen, invisible
// operators, the combining grapheme joiner, variation selectors, the Hangul
// and Khmer fillers, the Mongolian vowel separator and free variation
// selectors, the byte order mark, the tag characters and the reserved
// ignorable ranges), DEL and the C1 controls. C0 controls stay and are
// escaped by the JSON encoders.
func Clean(s string) string {
	i := 0
	for ; i < len(s); i++ {
		if s[i] >= 0x7f {
			break
		}
	}
	if i == len(s) {
		return s // plain ASCII: the common case costs one scan
	}
	j := -1 // the first rune Clean drops (or an invalid byte)
	for k, r := range s[i:] {
		if invisible(r) || r == utf8.RuneError {
			j = i + k
			break
		}
	}
	if j < 0 {
		return s // nothing to remove: no copy
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:j])
	for _, r := range s[j:] {
		if !invisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

//go:generate go run ./internal/ignorablegen
//go:generate go run ./internal/basegen

// invisible reports whether Clean removes r: DEL, a C1 control or a
// Default_Ignorable_Code_Point (the generated table ignorable).
func invisible(r rune) bool {
	if r < 0x7f {
		return false
	}
	if r <= 0x9f {
		return true // DEL, C1 controls
	}
	lo, hi := 0, len(ignorable)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < ignorable[m][0]:
			hi = m
		case r > ignorable[m][1]:
			lo = m + 1
		default:
			return true
		}
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
