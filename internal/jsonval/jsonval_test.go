package jsonval_test

import (
	"encoding/json"
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
// accepts too; the canonical encoding parses back to an equal value and is
// a fixed point; it never holds a raw control character or line separator.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00\u2028"`, `1e400`, `{"a":1,"a":2}`, `[[[[]]]]`, "\"\xff\""} {
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
