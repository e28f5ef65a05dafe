package jw

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mailru/easyjson/jwriter"
)

// old is what the wire wrote before this package: easyjson's jwriter with
// NoEscapeHTML. Responses must stay byte-identical to it.
func old(f func(w *jwriter.Writer)) string {
	w := jwriter.Writer{NoEscapeHTML: true}
	f(&w)
	b, err := w.BuildBytes()
	if err != nil {
		panic(err)
	}
	return string(b)
}

func str(s string) string {
	var w Writer
	w.String(s)
	return string(w.Bytes())
}

func TestString(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", `""`},
		{"plain", "order 42", `"order 42"`},
		{"html is not escaped", "<a href='x'>&amp;</a>", `"<a href='x'>&amp;</a>"`},
		{"quote and backslash", `say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"tab newline return by name", "a\tb\nc\rd", `"a\tb\nc\rd"`},
		{"backspace and form feed as \\u", "\b\f", `"\u0008\u000c"`},
		{"nul and unit separator", "\x00\x1f", `"\u0000\u001f"`},
		{"DEL as is", "\x7f", "\"\x7f\""},
		{"line and paragraph separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"other U+202x as is", "\u2027\u202a\u202f", "\"\u2027\u202a\u202f\""},
		{"invalid byte", "a\xffb", `"a\ufffdb"`},
		{"each invalid byte replaced", "\xc3\x28\xa0\xa1", `"\ufffd(\ufffd\ufffd"`},
		{"truncated sequence at the end", "ok\xe2\x82", `"ok\ufffd\ufffd"`},
		{"UTF-8 of a surrogate is invalid", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
		{"overlong encoding is invalid", "\xc0\xaf", `"\ufffd\ufffd"`},
		{"a real U+FFFD as is", "\ufffd", "\"\ufffd\""},
		{"astral as is", "\U0001F600 é 中", "\"\U0001F600 é 中\""},
		{"escape at start and end", "\n x \"", `"\n x \""`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := str(c.in); got != c.want {
				t.Errorf("String(%q) = %s, want %s", c.in, got, c.want)
			}
			if o := old(func(w *jwriter.Writer) { w.String(c.in) }); o != c.want {
				t.Errorf("jwriter wrote %s, the table says %s", o, c.want)
			}
		})
	}
}

func TestStringEveryByteAndRune(t *testing.T) {
	for b := 0; b < 256; b++ {
		s := string([]byte{'x', byte(b), 'y'})
		if got, want := str(s), old(func(w *jwriter.Writer) { w.String(s) }); got != want {
			t.Errorf("byte %#x: %s, jwriter %s", b, got, want)
		}
	}
	for r := rune(0x80); r < 0x3000; r++ {
		s := string(r)
		if got, want := str(s), old(func(w *jwriter.Writer) { w.String(s) }); got != want {
			t.Errorf("rune %U: %s, jwriter %s", r, got, want)
		}
	}
}

func TestInt(t *testing.T) {
	for _, n := range []int{0, 1, -1, 9, 10, 42, -100, 1 << 31, -(1 << 31), math.MaxInt64, math.MinInt64} {
		var w Writer
		w.Int(n)
		if got, want := string(w.Bytes()), old(func(w *jwriter.Writer) { w.Int(n) }); got != want {
			t.Errorf("Int(%d) = %s, jwriter %s", n, got, want)
		}
	}
}

func TestWriter(t *testing.T) {
	w := NewWriter(1)
	w.RawByte('{')
	w.Comma() // first member: no comma
	w.RawString(`"a":`)
	w.Bool(true)
	w.Comma()
	w.RawString(`"b":`)
	w.Bool(false)
	w.Comma()
	w.RawString(`"c":`)
	w.Raw([]byte(`[1,{"d":null}]`))
	w.RawByte('}')
	if got, want := string(w.Bytes()), `{"a":true,"b":false,"c":[1,{"d":null}]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var z Writer
	z.Comma() // nothing written yet: no comma either
	if len(z.Bytes()) != 0 {
		t.Errorf("Comma on an empty writer wrote %q", z.Bytes())
	}
}

// FuzzString holds String to the old jwriter byte for byte, and to
// encoding/json in meaning: both decode to the same string.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\u2028\u2029", "\xff\xfe", "\xed\xa0\x80", "\x00\x1f\x7f", `"\`, "é\U0001F600", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := str(s)
		if want := old(func(w *jwriter.Writer) { w.String(s) }); got != want {
			t.Fatalf("String(%q) = %s, jwriter %s", s, got, want)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("String(%q) wrote invalid UTF-8", s)
		}
		var ours, theirs string
		if err := json.Unmarshal([]byte(got), &ours); err != nil {
			t.Fatalf("String(%q) = %s: not JSON: %v", s, got, err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(buf.Bytes(), &theirs); err != nil {
			t.Fatal(err)
		}
		if ours != theirs {
			t.Fatalf("String(%q) decodes to %q, encoding/json's to %q", s, ours, theirs)
		}
		if strings.ContainsAny(got[1:len(got)-1], "\u2028\u2029") {
			t.Fatalf("String(%q) = %s: a raw line separator", s, got)
		}
	})
}

// FuzzInt holds Int to strconv.
func FuzzInt(f *testing.F) {
	for _, n := range []int64{0, -1, 99, 100, math.MaxInt64, math.MinInt64} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		var w Writer
		w.Int(int(n))
		if got, want := string(w.Bytes()), strconv.FormatInt(n, 10); got != want {
			t.Fatalf("Int(%d) = %s, want %s", n, got, want)
		}
	})
}
