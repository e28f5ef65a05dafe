package manifest

import (
	"math/rand/v2"
	"testing"
)

// textStatsRunes is what textStats must answer: the text read one rune at
// a time.
func textStatsRunes(s string) (n int, control bool) {
	for _, r := range s {
		n++
		control = control || r < 0x20 || r == 0x7f
	}
	return n, control
}

// TestTextStats puts every byte value at every position of the first three
// words, then random texts of the characters that matter, invalid UTF-8
// included.
func TestTextStats(t *testing.T) {
	check := func(s string) {
		t.Helper()
		n, control := textStats(s)
		wantN, wantControl := textStatsRunes(s)
		if n != wantN || control != wantControl {
			t.Fatalf("textStats(%q) = %d, %v; want %d, %v", s, n, control, wantN, wantControl)
		}
	}
	for n := 0; n <= 26; n++ {
		for pos := 0; pos < n; pos++ {
			for v := 0; v < 256; v++ {
				b := make([]byte, n)
				for k := range b {
					b[k] = 'a'
				}
				b[pos] = byte(v)
				check(string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "Z", " ", "~", "\x7f", "\x1f", "\x00", "\t", "é", "€", "😀", "\xff", "\xc3", "\u2028", "\u0080"}
	for range 20000 {
		var b []byte
		for k := r.IntN(40); k > 0; k-- {
			if r.IntN(4) == 0 {
				b = append(b, pieces[r.IntN(len(pieces))]...)
			} else {
				b = append(b, byte('a'+r.IntN(26)))
			}
		}
		check(string(b))
	}
}
