package expose

import (
	"strings"
	"testing"
	"unicode"
)

// TestPlainLettersFoldToThemselves checks plainLetter's ranges: no rune in
// them is one fold drops or turns into a blank, so skipping the table
// lookups for them changes nothing.
func TestPlainLettersFoldToThemselves(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if plainLetter(r) && (invisible(r) || unicode.In(r, unicode.Cf, unicode.M, unicode.Co, unicode.Zs, unicode.Zl, unicode.Zp) || r == 0x2800 || r == 0xfffc) {
			t.Errorf("%U is in plainLetter's ranges, but fold changes it", r)
		}
	}
}

// TestFoldJoinsWhatCutsAKey: a key cut by a control, a replacement
// character or a combining mark, or a name and value parted by a Unicode
// space, read as they would with nothing (or a blank) between.
func TestFoldJoinsWhatCutsAKey(t *testing.T) {
	key := "ghp_" + strings.Repeat("R8kQ2vZpX7", 3) + "mLw3Nc"
	for _, sep := range []string{"\x00", "\x1b", "\v", "\f", "\ufffd", "\u0301", "\u200b", "\xff", "\u2800", "\ufffc", "\ue000", "\U000f0000"} {
		if s := key[:17] + sep + key[17:]; !IsCredential(s) {
			t.Errorf("a GitHub token cut by %q passes: %q", sep, s)
		}
	}
	for _, sp := range []string{"\u00a0", "\u202f", "\u2009", "\u2002", "\u205f", "\u3000", "\u2028"} {
		for _, s := range []string{"Authorization: Bearer" + sp + "abcDEF123ghiJKL456mnoPQR789stu", "password:" + sp + "Tr0ub4dor&3xyz"} {
			if !IsCredential(s) {
				t.Errorf("%q passes with %U after the name", s, []rune(sp)[0])
			}
		}
	}
	// Marks and spaces in ordinary text stay ordinary text.
	for _, s := range []string{"Livraison\u00a0: 12\u00a0rue des Lilas", "Cafe\u0301 de\u202fFlore", "Zoë\u2009Dupré"} {
		if IsCredential(s) {
			t.Errorf("%q is taken for a credential", s)
		}
	}
}

// TestFoldKeepsKeyStarts: a control character or a combining mark between
// a word and a key reads as a blank, so the key still starts a token; and
// decomposed text does not fold into one long word.
func TestFoldKeepsKeyStarts(t *testing.T) {
	for _, s := range []string{"Ref\u001fglpat-sVgkZVtpVlrJtXbPlIM_", "Order SO-1001\u001fAKIAIOSFODNN7EXAMPLE", "Khoa\u0301glpat-sVgkZVtpVlrJtXbPlIM_"} {
		if !IsCredential(s) {
			t.Errorf("%q passes", s)
		}
	}
	nfd := "Nha\u0302nVie\u0302nXua\u0302\u0301tSa\u0306\u0301cTha\u0301ngMu\u031bo\u031b\u0300iHai2026Pho\u0300ngKinhDoanh"
	if IsCredential(nfd) {
		t.Errorf("decomposed Vietnamese text is taken for a credential: %q", nfd)
	}
}

// TestBaseLetters: a precomposed Latin letter reads as the ASCII letter of
// its canonical decomposition (UnicodeData.txt), recursively; letters that
// decompose to no ASCII letter, or not at all, and everything outside the
// table's blocks, read as none. withoutAccents writes text so when a word
// of 8 bytes or more changes.
func TestBaseLetters(t *testing.T) {
	for r, want := range map[rune]byte{
		'á': 'a', 'Ấ': 'A', 'ǖ': 'u', 'Ḱ': 'K', 'ỹ': 'y', 'ṕ': 'p', 'Ǵ': 'G', 'ẘ': 'w', 'ẛ': 0, '\u212a': 'K', '\u212b': 'A', '\u2126': 0,
		'ǯ': 0, 'ß': 0, 'Ø': 0, 'ı': 0, 'Æ': 0, 'ẞ': 0, '×': 0, 'a': 0, 'й': 0, 'ώ': 0, 'ａ': 0,
	} {
		if got := baseLetter(r); got != want {
			t.Errorf("baseLetter(%q) = %q, want %q", r, got, want)
		}
	}
	for _, tc := range []struct{ in, out string }{
		{"ǵh́ṕ_R8äKq2LmZ0", "ghp_R8aKq2LmZ0"},
		{"key g\u0301h\u0301p\u0301_R8fKq2Lm", "key ghp_R8fKq2Lm"},
		{"A\u212aIA4XQ2MZ7JRB6KW3PT", "AKIA4XQ2MZ7JRB6KW3PT"},
		{"Straße, Øre, Ångströmværdi", "Straße, Øre, Angstromværdi"},
	} {
		if got, ok := withoutAccents(tc.in); !ok || got != tc.out {
			t.Errorf("withoutAccents(%q) = %q, %v; want %q, true", tc.in, got, ok, tc.out)
		}
	}
	// Nothing to change, or only words under 8 bytes, which hold no key.
	for _, s := range []string{"plain ASCII", "Straße Øre", "東京 서울 Москва", "Nhân Viên Xuất Sắc 2026", "Crème brûlée, São Paulo"} {
		if got, ok := withoutAccents(s); ok {
			t.Errorf("withoutAccents(%q) = %q, true; want nothing to change", s, got)
		}
	}
}
