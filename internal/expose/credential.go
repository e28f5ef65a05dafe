package expose

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsCredential reports whether s contains something shaped like a secret:
// a JWT, an Authorization bearer or basic value, a cookie header or a
// Set-Cookie value, a private key block (armoured or bare DER), a URL with
// a password, a secret-looking assignment ("password=…", "client_secret:
// …"), a chat webhook URL, or an API key of a common cloud or SaaS
// provider. The module replaces every such string whole, whatever the
// manifest says.
//
// Invisible characters (zero-width, bidi controls, soft hyphen, tag
// characters, DEL and C1 controls) are ignored while matching, so that a secret split by them is
// still caught: the module strips most of them on output, which would
// otherwise reassemble the secret.
//
// The net is written by hand rather than with regexp: it runs over every
// string that leaves the module and regexp would add to the module's size.
// testdata/credentials holds the corpus it is measured on (SECURITY.md
// gives the figures), with look-alikes that must pass untouched: order
// numbers, UUIDs, SKUs, dates, hashes and prose that mentions passwords or
// cookies.
func IsCredential(s string) bool {
	if len(s) < 8 {
		return false
	}
	s = withoutFormatChars(s)
	if hasPhrase(s) || setCookieValue(s) {
		return true
	}
	for i := 0; i < len(s); {
		for i < len(s) && !wordByte(s[i]) {
			i++
		}
		j := i
		for j < len(s) && wordByte(s[j]) {
			j++
		}
		// Sentence punctuation is not part of a token.
		w := strings.TrimRight(s[i:j], ".")
		if len(w) > 0 && secretWord(w) {
			return true
		}
		i = j
	}
	return false
}

// withoutFormatChars returns s as the agent will read it: without what
// Clean strips (DEL, C1 controls, bidi and zero-width characters, tag
// characters) and without the other Unicode format characters (category
// Cf, such as the soft hyphen). It returns s itself when there is nothing
// to remove.
func withoutFormatChars(s string) string {
	s = Clean(s)
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	found := false
	for _, r := range s[i:] {
		if r >= 0xad && unicode.Is(unicode.Cf, r) {
			found = true
			break
		}
	}
	if !found {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r >= 0xad && unicode.Is(unicode.Cf, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wordByte reports whether c can be part of a token: the base64, base64url
// and key alphabets.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '+' || c == '/' || c == '='
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// run counts the bytes at the start of s that satisfy ok.
func run(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && ok(s[n]) {
		n++
	}
	return n
}

func keyByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

func base64Byte(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

// prefixed keys: a fixed prefix followed by at least min key characters,
// at least one of them a digit.
var prefixed = []struct {
	prefix string
	min    int
}{
	{"ghp_", 30}, {"gho_", 30}, {"ghu_", 30}, {"ghs_", 30}, {"ghr_", 30}, {"github_pat_", 20},
	{"glpat-", 20}, {"glrt-", 20}, {"glptt-", 20},
	{"xoxb-", 10}, {"xoxp-", 10}, {"xoxa-", 10}, {"xoxr-", 10}, {"xoxs-", 10}, {"xapp-", 10},
	{"sk_live_", 16}, {"sk_test_", 16}, {"rk_live_", 16}, {"rk_test_", 16}, {"whsec_", 16},
	{"sk-ant-", 20}, {"sk-proj-", 20}, {"sk-", 32},
	{"AIza", 35}, {"ya29.", 20}, {"GOCSPX-", 24}, {"npm_", 36}, {"hf_", 30}, {"pypi-", 50},
	{"shpat_", 32}, {"shpss_", 32}, {"shpca_", 32}, {"dop_v1_", 40}, {"key-", 32}, {"SG.", 60},
	{"sq0atp-", 20}, {"sq0csp-", 30}, {"EAAA", 60}, {"ATATT", 40}, {"PMAK-", 40}, {"dapi", 32},
	{"AKIA", 16}, {"ASIA", 16}, {"AROA", 16}, {"AIDA", 16},
}

func secretWord(w string) bool {
	if len(w) < 12 {
		return false
	}
	// JWT: three base64url segments, the header a JSON object ("eyJ").
	if strings.HasPrefix(w, "eyJ") {
		parts := strings.Split(strings.TrimRight(w, "."), ".")
		if len(parts) >= 2 && len(parts[0]) >= 10 && len(parts[1]) >= 10 {
			return true
		}
	}
	// A bare DER private key or certificate body: base64 of an ASN.1
	// SEQUENCE with a two-byte length starts "MII".
	if strings.HasPrefix(w, "MII") && run(w, func(c byte) bool { return base64Byte(c) || c == '=' }) >= 64 {
		return true
	}
	for _, p := range prefixed {
		if !strings.HasPrefix(w, p.prefix) {
			continue
		}
		rest := w[len(p.prefix):]
		n := run(rest, keyByte)
		if p.prefix == "SG." || p.prefix == "ya29." {
			n = run(rest, func(c byte) bool { return keyByte(c) || c == '.' })
		}
		if len(p.prefix) == 4 && p.prefix[0] == 'A' && p.prefix != "AIza" {
			// AWS access key ids: exactly 16 upper-case letters and digits.
			n = run(rest, func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' })
			if n == 16 && len(rest) == 16 {
				return true
			}
			continue
		}
		if n >= p.min && hasDigit(rest[:n]) {
			return true
		}
	}
	return awsSecret(w)
}

// awsSecret matches a 40-character base64 word that looks random: an AWS
// secret access key (and keys of the same shape). Mixed case and digits are
// required, and the character class must change often; a word without "/"
// or "+" must also have few lower-case runs of three or more letters,
// which CamelCase identifiers are made of. The net misses about 1.7% of
// random 40-character base64 keys (measured on 100,000).
// Hex hashes have no upper case and never match.
func awsSecret(w string) bool {
	if len(w) != 40 || run(w, base64Byte) != 40 {
		return false
	}
	var seen [4]int
	changes, lowerRun, longRuns := 0, 0, 0
	for i := 0; i < len(w); i++ {
		c := charClass(w[i])
		seen[c]++
		if i > 0 && c != charClass(w[i-1]) {
			changes++
		}
		if c == 0 {
			if lowerRun++; lowerRun == 3 {
				longRuns++
			}
		} else {
			lowerRun = 0
		}
	}
	if seen[0] == 0 || seen[1] == 0 || seen[2] == 0 {
		return false
	}
	if seen[3] > 0 {
		return changes >= 12
	}
	return changes >= 16 && longRuns <= 3
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// phrases are matched case-insensitively; each returns whether what follows
// the phrase completes a secret.
var phrases = []struct {
	text string
	then func(rest string) bool
}{
	{"-----begin", func(rest string) bool {
		end := strings.Index(rest, "-----")
		return end >= 0 && strings.Contains(strings.ToLower(rest[:end]), "private key")
	}},
	{"bearer ", func(rest string) bool { return bearerToken(trimQuotes(rest)) }},
	{"basic ", func(rest string) bool { return basicToken(trimQuotes(rest)) }},
	{"cookie:", func(rest string) bool { return cookiePair(trimQuotes(rest)) }},
	{"cookie=", func(rest string) bool { return cookiePair(trimQuotes(rest)) }},
	{"://", urlPassword},
	{"hooks.slack.com/services/", func(rest string) bool { return run(rest, wordByte) >= 20 }},
	{"discord.com/api/webhooks/", func(rest string) bool { return run(rest, wordByte) >= 20 }},
	{"discordapp.com/api/webhooks/", func(rest string) bool { return run(rest, wordByte) >= 20 }},
}

// secretKeys are the names of secret-looking assignments: the name, then
// optional blanks and quotes, then "=" or ":", then a value (see assigned).
var secretKeys = []string{
	"password", "passwd", "pwd", "secret", "token", "api_key", "apikey", "api-key",
	"accountkey", "sharedaccesskey", "sharedaccesssignature", "sig", "access_key",
	"secret_access_key", "private_key", "x-api-key", "client_secret", "auth_token",
}

// firstPhrase and firstKey index phrases and secretKeys by their first
// byte, so that hasPhrase looks at each byte of s once.
var firstPhrase, firstKey [256][]int

func init() {
	for i, p := range phrases {
		firstPhrase[p.text[0]] = append(firstPhrase[p.text[0]], i)
	}
	for i, k := range secretKeys {
		firstKey[k[0]] = append(firstKey[k[0]], i)
	}
}

// hasPhrase looks for the phrases and assignments without allocating a
// lower-case copy.
func hasPhrase(s string) bool {
	for i := 0; i < len(s); i++ {
		c := lower(s[i])
		for _, pi := range firstPhrase[c] {
			p := &phrases[pi]
			if len(s)-i >= len(p.text) && equalFold(s[i:i+len(p.text)], p.text) && p.then(s[i+len(p.text):]) {
				return true
			}
		}
		for _, ki := range firstKey[c] {
			k := secretKeys[ki]
			if len(s)-i >= len(k) && equalFold(s[i:i+len(k)], k) && assigned(s[i+len(k):]) {
				return true
			}
		}
	}
	return false
}

// trimQuotes drops blanks and quotes, escaped ones included (a JSON text
// kept inside a string).
func trimQuotes(s string) string { return strings.TrimLeft(s, " \t\"'\\") }

// assigned reports whether rest, which follows a secret key name, assigns
// it a value: with "=", a value of six or more characters; with ":" (a
// header, YAML or JSON), a value that has a digit or a symbol, or is long,
// so that prose such as "Password: please ask the admin" passes.
func assigned(rest string) bool {
	rest = trimQuotes(rest)
	if rest == "" || (rest[0] != '=' && rest[0] != ':') {
		return false
	}
	sep := rest[0]
	rest = trimQuotes(rest[1:])
	n := run(rest, func(c byte) bool {
		return wordByte(c) || c == '%' || c == '!' || c == '@' || c == '#' || c == '$' || c == '*' || c == '~' || c == '^'
	})
	if n < 6 {
		return false
	}
	if sep == '=' {
		return true
	}
	v := rest[:n]
	return n >= 16 || hasDigit(v) || strings.ContainsAny(v, "_-+/=%!@#$*~^")
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

func equalFold(a, lowerB string) bool {
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lowerB[i] {
			return false
		}
	}
	return true
}

func bearerToken(rest string) bool {
	n := run(rest, func(c byte) bool { return wordByte(c) || c == '~' })
	if n < 12 {
		return false
	}
	t := rest[:n]
	return hasDigit(t) || strings.ContainsAny(t, "._-~+/")
}

func basicToken(rest string) bool {
	n := run(rest, wordByte)
	if n < 8 {
		return false
	}
	dec, err := base64.StdEncoding.DecodeString(rest[:n])
	if err != nil {
		dec, err = base64.RawStdEncoding.DecodeString(rest[:n])
	}
	return err == nil && strings.IndexByte(string(dec), ':') > 0
}

func cookiePair(rest string) bool {
	n := run(rest, func(c byte) bool { return wordByte(c) && c != '=' })
	return n > 0 && n < len(rest) && rest[n] == '=' && len(rest)-n > 4
}

// setCookieValue matches a cookie string without its header name: a
// name=value pair whose value looks like a session id (16 or more random
// characters with a digit), in a string that has "; " as cookie strings
// do ("sid=…; Path=/; HttpOnly", "a=1; sid=…").
func setCookieValue(s string) bool {
	if !strings.Contains(s, "; ") {
		return false
	}
	for rest := s; ; {
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return false
		}
		name := 0
		for name < eq && (keyByte(rest[eq-1-name]) || rest[eq-1-name] == '.') {
			name++
		}
		rest = rest[eq+1:]
		n := run(rest, func(c byte) bool { return wordByte(c) && c != '=' || c == '%' })
		if v := rest[:n]; name > 0 && n >= 16 && hasDigit(v) && randomish(v) {
			return true
		}
	}
}

// randomish reports whether the character class (lower, upper, digit,
// other) changes at least once every three characters, as it does in
// random keys and session ids and does not in words and identifiers.
func randomish(v string) bool {
	changes := 0
	for i := 1; i < len(v); i++ {
		if charClass(v[i]) != charClass(v[i-1]) {
			changes++
		}
	}
	return changes*3 >= len(v)
}

func charClass(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return 0
	case c >= 'A' && c <= 'Z':
		return 1
	case c >= '0' && c <= '9':
		return 2
	}
	return 3
}

// urlPassword matches user:password@ (or :password@) right after "://".
func urlPassword(rest string) bool {
	end := strings.IndexAny(rest, "/?# \t")
	if end < 0 {
		end = len(rest)
	}
	auth := rest[:end]
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return false
	}
	colon := strings.IndexByte(auth[:at], ':')
	return colon >= 0 && colon < at-1
}
