package expose

import (
	"encoding/base64"
	"strings"
)

// IsCredential reports whether s contains something shaped like a secret:
// a JWT, an Authorization bearer or basic value, a cookie header, a private
// key block, a URL with a password, a secret-looking query or config
// assignment, or an API key of a common cloud or SaaS provider. The module
// replaces every such string whole, whatever the manifest says.
//
// The net is written by hand rather than with regexp: it runs over every
// string that leaves the module and regexp would add to the module's size.
// testdata/credentials holds the corpus it is measured on, with look-alikes
// that must pass untouched.
func IsCredential(s string) bool {
	if len(s) < 8 {
		return false
	}
	if hasPhrase(s) {
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
		if j > i && secretWord(s[i:j]) {
			return true
		}
		i = j
	}
	return false
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

// prefixed keys: a fixed prefix followed by at least min key characters.
var prefixed = []struct {
	prefix string
	min    int
}{
	{"ghp_", 30}, {"gho_", 30}, {"ghu_", 30}, {"ghs_", 30}, {"ghr_", 30}, {"github_pat_", 20},
	{"glpat-", 20}, {"glrt-", 20},
	{"xoxb-", 10}, {"xoxp-", 10}, {"xoxa-", 10}, {"xoxr-", 10}, {"xoxs-", 10}, {"xapp-", 10},
	{"sk_live_", 16}, {"sk_test_", 16}, {"rk_live_", 16}, {"rk_test_", 16}, {"whsec_", 16},
	{"sk-ant-", 20}, {"sk-proj-", 20}, {"sk-", 32},
	{"AIza", 35}, {"ya29.", 20}, {"npm_", 36}, {"hf_", 30}, {"pypi-", 50},
	{"shpat_", 32}, {"shpss_", 32}, {"dop_v1_", 40}, {"key-", 32}, {"SG.", 60},
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
	for _, p := range prefixed {
		if !strings.HasPrefix(w, p.prefix) {
			continue
		}
		rest := w[len(p.prefix):]
		n := run(rest, keyByte)
		if p.prefix == "SG." || p.prefix == "ya29." {
			n = run(rest, func(c byte) bool { return keyByte(c) || c == '.' })
		}
		if strings.HasPrefix(p.prefix, "A") && p.prefix != "AIza" {
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
	return false
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
// the phrase at s[i:] completes a secret.
var phrases = []struct {
	text string
	then func(rest string) bool
}{
	{"-----begin", func(rest string) bool {
		end := strings.Index(rest, "-----")
		return end >= 0 && strings.Contains(strings.ToLower(rest[:end]), "private key")
	}},
	{"bearer ", func(rest string) bool { return bearerToken(rest) }},
	{"basic ", func(rest string) bool { return basicToken(rest) }},
	{"cookie:", func(rest string) bool { return cookiePair(rest) }},
	{"cookie=", func(rest string) bool { return cookiePair(rest) }},
	{"://", func(rest string) bool { return urlPassword(rest) }},
	{"password=", value}, {"passwd=", value}, {"pwd=", value}, {"secret=", value},
	{"token=", value}, {"api_key=", value}, {"apikey=", value}, {"api-key=", value},
	{"password\":", value}, {"secret\":", value}, {"token\":", value},
	{"accountkey=", value}, {"sharedaccesssignature=", value}, {"sig=", value},
	{"x-api-key:", value}, {"private_key", value},
}

// hasPhrase looks for the phrases without allocating a lower-case copy.
func hasPhrase(s string) bool {
	for i := 0; i < len(s); i++ {
		c := lower(s[i])
		for _, p := range phrases {
			if c != p.text[0] || len(s)-i < len(p.text) {
				continue
			}
			if equalFold(s[i:i+len(p.text)], p.text) && p.then(strings.TrimLeft(s[i+len(p.text):], " \t\"")) {
				return true
			}
		}
	}
	return false
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

// value: a secret-looking assignment has a value of six or more characters.
func value(rest string) bool {
	return run(rest, func(c byte) bool { return wordByte(c) || c == '%' || c == '!' || c == '@' || c == '#' || c == '$' || c == '*' }) >= 6
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

// urlPassword matches user:password@ right after "://".
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
	return colon > 0 && colon < at-1
}
