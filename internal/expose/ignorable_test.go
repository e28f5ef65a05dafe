package expose_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
)

// defaultIgnorables reads the ranges of the committed extract of Unicode's
// DerivedCoreProperties.txt, independently of the generated table.
func defaultIgnorables(t *testing.T) [][2]rune {
	t.Helper()
	f, err := os.Open("internal/ignorablegen/DerivedCoreProperties.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]rune
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		cp, prop, ok := strings.Cut(line, ";")
		if !ok || strings.TrimSpace(prop) != "Default_Ignorable_Code_Point" {
			continue
		}
		lo, hi, isRange := strings.Cut(strings.TrimSpace(cp), "..")
		if !isRange {
			hi = lo
		}
		l, err1 := strconv.ParseUint(lo, 16, 32)
		h, err2 := strconv.ParseUint(hi, 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		out = append(out, [2]rune{rune(l), rune(h)})
	}
	if len(out) < 20 {
		t.Fatalf("only %d Default_Ignorable_Code_Point ranges read", len(out))
	}
	return out
}

// TestCleanRemovesDefaultIgnorables: every Default_Ignorable_Code_Point of
// the Unicode data is removed, between letters and between the halves of a
// secret; the code points next to each range that are not ignorable stay.
func TestCleanRemovesDefaultIgnorables(t *testing.T) {
	ranges := defaultIgnorables(t)
	ignorable := func(r rune) bool {
		for _, g := range ranges {
			if r >= g[0] && r <= g[1] {
				return true
			}
		}
		return false
	}
	n := 0
	for _, g := range ranges {
		for r := g[0]; r <= g[1]; r++ {
			n++
			if got := expose.Clean("a" + string(r) + "b"); got != "ab" {
				t.Fatalf("Clean kept U+%04X: %q", r, got)
			}
		}
		for _, r := range []rune{g[0] - 1, g[1] + 1} {
			if ignorable(r) || r <= 0x9f || (r >= 0xd800 && r <= 0xdfff) {
				continue
			}
			if got := expose.Clean("a" + string(r) + "b"); got != "a"+string(r)+"b" {
				t.Errorf("Clean removed U+%04X, which is not ignorable", r)
			}
		}
	}
	if n != 4174 {
		t.Errorf("%d Default_Ignorable_Code_Points checked; Unicode 15.0 has 4174", n)
	}
}

// TestCleanFillers pins the characters the security review found surviving
// cleaning: the combining grapheme joiner, variation selectors, the Hangul
// fillers, the Khmer inherent vowels and the Mongolian free variation
// selectors. Each hides nothing, and none hides a secret from the net.
func TestCleanFillers(t *testing.T) {
	secret := "ghp_R8fKq2LmZ0xW7vTn4YcB9sHd1JpE6uGa3Qo5"
	for _, r := range []rune{0x034F, 0xFE00, 0xFE0F, 0xE0100, 0xE01EF, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F, 0x00AD, 0x1D173, 0x1BCA0} {
		if got := expose.Clean("x" + string(r) + "y"); got != "xy" {
			t.Errorf("Clean kept U+%04X: %q", r, got)
		}
		split := secret[:6] + string(r) + secret[6:20] + string(r) + secret[20:]
		if !expose.IsCredential(split) {
			t.Errorf("U+%04X inside a GitHub token hides it from the net", r)
		}
	}
}
