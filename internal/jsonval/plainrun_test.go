package jsonval

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// plainRunBytes is what plainRun must answer: the run read one byte at a
// time.
func plainRunBytes(d []byte, i int) (int, bool) {
	ascii := true
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	return i, ascii
}

// TestPlainRun puts every byte value at every position of the first three
// words, from every start, then random runs of the bytes that matter.
func TestPlainRun(t *testing.T) {
	check := func(d []byte, i int) {
		t.Helper()
		end, ascii := plainRun(d, i)
		wantEnd, wantASCII := plainRunBytes(d, i)
		if end != wantEnd || ascii != wantASCII {
			t.Fatalf("run of %q from %d = %d, %v; want %d, %v", d, i, end, ascii, wantEnd, wantASCII)
		}
	}
	for n := 0; n <= 26; n++ {
		for pos := 0; pos < n; pos++ {
			for v := 0; v < 256; v++ {
				d := make([]byte, n)
				for k := range d {
					d[k] = 'a'
				}
				d[pos] = byte(v)
				for i := 0; i <= n; i++ {
					check(d, i)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', 'z', ' ', '~', 0x7f, 0x80, 0xc3, 0xa9, 0xff, 0x1f, 0x20, 0x21, '"', '\\', 0, 0x01, 0x5b, 0x5d}
	for range 20000 {
		d := make([]byte, r.IntN(60))
		for k := range d {
			if r.IntN(8) == 0 {
				d[k] = alphabet[r.IntN(len(alphabet))]
			} else {
				d[k] = byte('a' + r.IntN(26))
			}
		}
		check(d, r.IntN(len(d)+1))
	}
}
