package expose_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
)

func TestMask(t *testing.T) {
	exact := []struct{ in, want string }{
		{"lena.zhou0@example.com", "l***@example.com"},
		{"4111 1111 1111 1000", "•••• 1000"},
		{"+44 20 7946 1000", "•••• 1000"},
		{"1234567", "•••"}, // too short to keep four digits
		{"hunter2", "•••"},
		{"", "•••"},
		{"\u202eevil@example.com", "e***@example.com"}, // invisible characters never lead
	}
	for _, c := range exact {
		if got := expose.Mask(c.in); got != c.want {
			t.Errorf("Mask(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// An "@" that is not in an e-mail address: nothing after it shows.
	hides := map[string][]string{
		"user@token-abc123XYZ":                            {"token", "abc123"},
		"postgres://u:pw@db.internal.example:5432/orders": {"5432", "orders", "pw", "internal"},
	}
	for in, parts := range hides {
		got := expose.Mask(in)
		for _, p := range parts {
			if strings.Contains(got, p) {
				t.Errorf("Mask(%q) = %q shows %q", in, got, p)
			}
		}
	}
}

// TestMaskShowsLittle: a mask never shows more than one character of an
// e-mail's local part, or more than the last four digits of a number.
func TestMaskShowsLittle(t *testing.T) {
	for _, s := range []string{"abcdefgh@example.com", "4111-1111-1111-1234", "+1 (555) 010-9999", "AB12CD34", "secret value"} {
		m := expose.Mask(s)
		if strings.Contains(m, s[:2]) && !strings.HasPrefix(s, "+1") {
			t.Errorf("Mask(%q) = %q keeps its first two characters", s, m)
		}
		if utf8.RuneCountInString(m) > utf8.RuneCountInString(s)+4 {
			t.Errorf("Mask(%q) = %q is longer than the value", s, m)
		}
	}
}

func TestClean(t *testing.T) {
	strip := "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2067\u2068\u2069\ufeff\u061c\u180e\U000E0041\x7f\u0085\u009b"
	if got := expose.Clean("a" + strip + "b"); got != "ab" {
		t.Errorf("Clean left %q", got)
	}
	keep := "plain ASCII, café, 日本語, emoji 😀, tab\t, newline\n, NUL\x00, U+2028\u2028"
	if got := expose.Clean(keep); got != keep {
		t.Errorf("Clean(%q) = %q: it must keep visible text and C0 controls (the encoder escapes those)", keep, got)
	}
}

func TestTruncate(t *testing.T) {
	s, n, cut := expose.Truncate("héllo wörld", 5)
	if s != "héllo" || n != 11 || !cut {
		t.Errorf("Truncate = %q, %d, %v", s, n, cut)
	}
	s, n, cut = expose.Truncate("short", 5)
	if s != "short" || n != 5 || cut {
		t.Errorf("Truncate = %q, %d, %v", s, n, cut)
	}
	s, n, cut = expose.Truncate("日本語日本語", 3)
	if s != "日本語" || n != 6 || !cut {
		t.Errorf("Truncate = %q, %d, %v", s, n, cut)
	}
}

// TestKeyer: tokens are stable within a session, unlinkable across
// sessions, never contain the value, and resolve only when handed out.
func TestKeyer(t *testing.T) {
	v := jsonval.NewString("4111 1111 1111 1000")
	a, b := expose.NewKeyer([]byte("session-key-aaaaaaaa")), expose.NewKeyer([]byte("session-key-bbbbbbbb"))
	if a.Alias(v) != a.Alias(jsonval.NewString("4111 1111 1111 1000")) {
		t.Error("alias is not stable within a session")
	}
	if a.Alias(v) == b.Alias(v) || a.Placeholder(v) == b.Placeholder(v) {
		t.Error("tokens link across sessions")
	}
	if a.Alias(v) == a.Alias(jsonval.NewString("4111 1111 1111 1001")) {
		t.Error("different values share an alias")
	}
	ph := a.Placeholder(v)
	if !strings.HasPrefix(ph, expose.PlaceholderPrefix) || strings.Contains(ph, "1000") || strings.Contains(a.Alias(v), "1000") {
		t.Errorf("tokens %q, %q", ph, a.Alias(v))
	}
	if got, ok := a.Resolve(ph); !ok || !jsonval.Equal(got, v) {
		t.Error("a handed-out placeholder does not resolve")
	}
	if _, ok := b.Resolve(ph); ok {
		t.Error("a token resolves in another session")
	}
	if _, ok := a.Resolve(expose.PlaceholderPrefix + "aaaaaaaaaaaaaaaaaaaaaaaa"); ok {
		t.Error("a made-up token resolves")
	}
	a.SetScope([]byte(`"another-tenant"`))
	if _, ok := a.Resolve(ph); ok {
		t.Error("a token resolves after the scope changed")
	}
	if a.Placeholder(v) == ph {
		t.Error("a new scope gives the same token")
	}
}
