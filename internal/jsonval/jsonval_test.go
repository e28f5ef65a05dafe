package jsonval_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `01`, `1.`, `.5`, `-`, `1e`, `+1`, `NaN`, `Infinity`,
		`"a`, "\"a\x01\"", `"\x"`, `"\u12"`, `"\uZZZZ"`, `tru`, `nul`, `1 2`, `{} {}`, `[1] x`,
		`{"a":1,"a":2}`,                        // duplicate keys: parsers disagree on which one wins
		"\"\xff\"", "\"\xc3\"", "{\"\xff\":1}", // invalid UTF-8
		strings.Repeat("[", jsonval.MaxDepth+1) + strings.Repeat("]", jsonval.MaxDepth+1),
	} {
		if _, err := jsonval.Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%.40q) succeeded", in)
		}
	}
}

func TestParseErrorsNeverQuoteInput(t *testing.T) {
	secret := "zqSECRETzq"
	for _, in := range []string{`{"` + secret + `":1,"` + secret + `":2}`, `["` + secret + `",]`, `"` + secret, `{"a":"` + secret + "\x01\"}"} {
		_, err := jsonval.Parse([]byte(in))
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("Parse(%q) error %v", in, err)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	cases := map[string]string{
		` {"a" : [1, -0.5e+10, true, false, null, "x"]} `: `{"a":[1,-0.5e+10,true,false,null,"x"]}`,
		`1e400`:                `1e400`, // numbers keep their literal text
		`"\ud83d\ude00"`:       `"😀"`,
		`"\ud83d"`:             `"` + "\ufffd" + `"`, // a lone surrogate becomes U+FFFD
		`"\ud83dx"`:            `"` + "\ufffdx" + `"`,
		`"\/\b\f"`:             `"/\u0008\u000c"`,
		`"a\u2028b"`:           `"a\u2028b"`,
		`"\u0000\u001f\u007f"`: `"\u0000\u001f` + "\x7f" + `"`,
		`"<script>&"`:          `"<script>&"`,
		strings.Repeat("[", jsonval.MaxDepth) + strings.Repeat("]", jsonval.MaxDepth): strings.Repeat("[", jsonval.MaxDepth) + strings.Repeat("]", jsonval.MaxDepth),
	}
	for in, want := range cases {
		v, err := jsonval.Parse([]byte(in))
		if err != nil {
			t.Errorf("Parse(%.40q): %v", in, err)
			continue
		}
		if got := string(jsonval.Marshal(v)); got != want {
			t.Errorf("Marshal(Parse(%.40q)) = %q, want %q", in, got, want)
		}
	}
}

func TestPointer(t *testing.T) {
	v, _ := jsonval.Parse([]byte(`{"a/b":{"m~n":[10,20]},"":1}`))
	for ptr, want := range map[string]string{"": `{"a/b":{"m~n":[10,20]},"":1}`, "/": "1", "/a~1b/m~0n/1": "20"} {
		p, err := jsonval.ParsePointer(ptr)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(jsonval.Marshal(p.Resolve(v))); got != want {
			t.Errorf("%q resolves to %s, want %s", ptr, got, want)
		}
		if p.String() != ptr {
			t.Errorf("%q round-trips as %q", ptr, p.String())
		}
	}
	for _, ptr := range []string{"/a~1b/m~0n/01", "/a~1b/m~0n/2", "/a~1b/m~0n/-", "/x/y", "/a~1b/m~0n/1/z"} {
		p, _ := jsonval.ParsePointer(ptr)
		if p.Resolve(v) != nil {
			t.Errorf("%q resolves", ptr)
		}
	}
	for _, bad := range []string{"a", "/~2", "/~"} {
		if _, err := jsonval.ParsePointer(bad); err == nil {
			t.Errorf("ParsePointer(%q) succeeded", bad)
		}
	}
}

// FuzzParse: the parser never panics; what it accepts, encoding/json
// accepts too and decodes to the same value; the canonical encoding parses back to an equal value and is
// a fixed point; it never holds a raw control character or line separator.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00\u2028"`, `1e400`, `{"a":1,"a":2}`, `[[[[]]]]`, "\"\xff\"",
		`"a\"b\\c\/\b\f\n\r\t\u00e9\ud800x\ud800\u0041é"`, `{"k\u00e9":["x\ny",-0.5e+3,true,false,null]}`,
		`{` + manyKeys(40) + `}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonval.Parse(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("jsonval accepts what encoding/json rejects: %q", data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := plain(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: jsonval parsed %#v, encoding/json %#v", data, got, want)
		}
		out := jsonval.Marshal(v)
		if !json.Valid(out) {
			t.Fatalf("Marshal output is not valid JSON: %q", out)
		}
		for _, b := range out {
			if b < 0x20 {
				t.Fatalf("raw control byte in %q", out)
			}
		}
		if strings.Contains(string(out), "\u2028") || strings.Contains(string(out), "\u2029") {
			t.Fatalf("raw line separator in %q", out)
		}
		w, err := jsonval.Parse(out)
		if err != nil {
			t.Fatalf("canonical output does not parse: %v", err)
		}
		if !jsonval.Equal(v, w) {
			t.Fatalf("round trip changed the value: %q -> %q", data, out)
		}
		if again := jsonval.Marshal(w); string(again) != string(out) {
			t.Fatalf("canonical encoding is not a fixed point: %q -> %q", out, again)
		}
	})
}

// plain converts v to what encoding/json decodes with UseNumber.
func plain(v *jsonval.Value) any {
	switch v.Kind {
	case jsonval.Bool:
		return v.B
	case jsonval.Number:
		return json.Number(v.S)
	case jsonval.String:
		return v.S
	case jsonval.Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = plain(it)
		}
		return out
	case jsonval.Object:
		out := make(map[string]any, len(v.Keys))
		for i, k := range v.Keys {
			out[k] = plain(v.Vals[i])
		}
		return out
	}
	return nil
}

// manyKeys returns n distinct members, enough for Parse to index the object.
func manyKeys(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":` + "1")
	}
	return b.String()
}

// TestEqualNumbersExactly: numbers are equal when they are the same number,
// whatever their spelling, and only then: two integers past 2^53 that are
// one float64 differ (an after or a stale check that compared them as
// float64 missed a changed balance or id).
func TestEqualNumbersExactly(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"1", "1.0", true}, {"1", "10e-1", true}, {"100", "1e2", true}, {"0.001", "1E-3", true},
		{"0", "-0", true}, {"0.0", "0e10", true}, {"-1.50", "-15e-1", true}, {"123.456", "1.23456e+2", true},
		{"9007199254740993", "9007199254740992", false}, {"1", "-1", false}, {"1", "1.0000000000000000001", false},
		{"1e400", "10e399", true}, {"1e400", "1e401", false}, {"0.1", "0.10000000000000001", false},
		{"1e1000000000000000000", "1e1000000000000000000", true},
		{"1e9999999999999999", "2e9999999999999999", false}, {"1e9999999999999999", "1e400", false},
		{"1e-9999999999999999", "0", false}, {"10e999999999999999998", "1e999999999999999999", true},
		{"0.01e-999999999999999999", "1e-1000000000000000001", true}, {"-0e99999999999999999999", "0", true},
	} {
		a, b := &jsonval.Value{Kind: jsonval.Number, S: c.a}, &jsonval.Value{Kind: jsonval.Number, S: c.b}
		if got := jsonval.Equal(a, b); got != c.want || jsonval.Equal(b, a) != c.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// FuzzEqualNumbers: for any two number literals the parser accepts, Equal
// is reflexive and symmetric, agrees with float64 whenever it says equal
// (exact equality is finer than float64's, never coarser), CompareNumbers
// is antisymmetric, zero exactly when Equal says so, and never contradicts
// an order float64 sees; and Equal says equal
// whenever the two have the same significant digits and scale, however
// they are written.
func FuzzEqualNumbers(f *testing.F) {
	for _, s := range [][2]string{{"1", "1.0"}, {"9007199254740993", "9007199254740992"}, {"-0", "0e5"}, {"1e400", "10e399"}, {"0.00100", "1e-3"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, x, y string) {
		a, errA := jsonval.Parse([]byte(x))
		b, errB := jsonval.Parse([]byte(y))
		if errA != nil || errB != nil || a.Kind != jsonval.Number || b.Kind != jsonval.Number {
			return
		}
		if !jsonval.Equal(a, a) {
			t.Fatalf("%s is not equal to itself", x)
		}
		eq := jsonval.Equal(a, b)
		if eq != jsonval.Equal(b, a) {
			t.Fatalf("Equal(%s, %s) is not symmetric", x, y)
		}
		fa, _ := a.Float()
		fb, _ := b.Float()
		if eq && fa != fb {
			t.Fatalf("Equal(%s, %s) but %v != %v as float64", x, y, fa, fb)
		}
		c := jsonval.CompareNumbers(a.S, b.S)
		if c != -jsonval.CompareNumbers(b.S, a.S) || (c == 0) != eq {
			t.Fatalf("CompareNumbers(%s, %s) = %d: not antisymmetric, or not Equal's verdict", x, y, c)
		}
		if fa < fb && c != -1 || fa > fb && c != 1 {
			t.Fatalf("CompareNumbers(%s, %s) = %d against float64 %v, %v", x, y, c, fa, fb)
		}
		// x with a zero appended to its fraction, or written with an
		// exponent, is the same number.
		for _, z := range []string{withZero(x), x + "e0"} {
			if c, err := jsonval.Parse([]byte(z)); err == nil && !jsonval.Equal(a, c) {
				t.Fatalf("Equal(%s, %s) = false", x, z)
			}
		}
	})
}

// withZero appends a 0 to the fraction of a number literal (adding ".0"
// when it has none), before any exponent.
func withZero(s string) string {
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	if !strings.Contains(mant, ".") {
		mant += "."
	}
	return mant + "0" + exp
}

// TestCompareNumbers: exact order of number literals, the comparison
// minimum and maximum use.
func TestCompareNumbers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1", "2", -1}, {"2", "1", 1}, {"-1", "1", -1}, {"-2", "-1", -1}, {"0", "-0", 0},
		{"9007199254740993", "9007199254740992", 1}, {"0.1", "0.10000000000000001", -1},
		{"1e400", "1e500", -1}, {"-1e400", "-1e500", 1}, {"1e-400", "0", 1}, {"-1e-400", "0", -1},
		{"123.45", "1.2345e2", 0}, {"99", "1e2", -1}, {"0.5", "5e-1", 0}, {"1.5", "1.25", 1},
		{"1e999999999999999999", "9e999999999999999998", 1}, {"1e-999999999999999999", "1e-1000000000000000000", 1},
	} {
		if got := jsonval.CompareNumbers(c.a, c.b); got != c.want || jsonval.CompareNumbers(c.b, c.a) != -c.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestIntegral: an integer is a number with no fractional part, however it
// is written, and however large or small.
func TestIntegral(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "1.0": true, "1e2": true, "-0": true, "0.0e-5": true, "1e400": true, "12.5e1": true,
		"9007199254740993": true, "1e99999999999999999999": true,
		"1.5": false, "9007199254740993.5": false, "1e-400": false, "1.5e-400": false, "125e-1": false,
		"1e-99999999999999999999": false,
	} {
		if got := (&jsonval.Value{Kind: jsonval.Number, S: s}).Integral(); got != want {
			t.Errorf("Integral(%s) = %v, want %v", s, got, want)
		}
	}
}

// TestSame: Same is Marshal equality, found without encoding; Equal is
// looser (numbers by value, members in any order).
func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		equal bool
	}{
		{`1`, `1`, true}, {`1`, `1.0`, true}, {`"a"`, `"\u0061"`, true}, {`null`, `null`, true}, {`true`, `false`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true}, {`{"a":1,"b":2}`, `{"a":1,"b":2}`, true}, {`{"a":1}`, `{"a":1,"b":2}`, false},
		{`[1,[2,{"x":3}]]`, `[1,[2,{"x":3.0}]]`, true}, {`[1,2]`, `[2,1]`, false}, {`"1"`, `1`, false}, {`{}`, `[]`, false},
	} {
		a, err := jsonval.Parse([]byte(c.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := jsonval.Parse([]byte(c.b))
		if err != nil {
			t.Fatal(err)
		}
		same := string(jsonval.Marshal(a)) == string(jsonval.Marshal(b))
		if got := jsonval.Same(a, b); got != same {
			t.Errorf("jsonval.Same(%s, %s) = %v, Marshal equality %v", c.a, c.b, got, same)
		}
		if got := jsonval.Equal(a, b); got != c.equal {
			t.Errorf("jsonval.Equal(%s, %s) = %v, want %v", c.a, c.b, got, c.equal)
		}
	}
	if jsonval.Same(nil, &jsonval.Value{}) || !jsonval.Same(nil, nil) {
		t.Error("Same with nil")
	}
}
