package jsonval_test

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// rfc6901Index is RFC 6901's array-index rule: "0" or digits without a
// leading zero.
var rfc6901Index = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

func TestArrayIndex(t *testing.T) {
	for _, tc := range []struct {
		tok  string
		want int
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"10", 10, true},
		{"999999999", 999999999, true},
		{"1000000000", 0, false}, // longer than any array
		{"", 0, false},
		{"-", 0, false}, // the end of an array: only for add, checked by the caller
		{"00", 0, false},
		{"01", 0, false},
		{"+1", 0, false},
		{"+0", 0, false},
		{"-0", 0, false},
		{"-1", 0, false},
		{"+01", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
		{"1e0", 0, false},
		{"0x1", 0, false},
		{"１", 0, false}, // a fullwidth digit is no digit here
	} {
		n, ok := jsonval.ArrayIndex(tc.tok)
		if n != tc.want || ok != tc.ok {
			t.Errorf("ArrayIndex(%q) = %d, %v; want %d, %v", tc.tok, n, ok, tc.want, tc.ok)
		}
	}
}

// TestPointerArrayTokens: the RFC 6901 cases the public suites check for
// arrays. A token with a sign or a leading zero names no element.
func TestPointerArrayTokens(t *testing.T) {
	v, _ := jsonval.Parse([]byte(`{"foo":["bar","baz"],"":0,"a/b":1}`))
	for ptr, want := range map[string]string{
		"/foo/0": `"bar"`, "/foo/1": `"baz"`,
		"/foo/+1": "", "/foo/-0": "", "/foo/+01": "", "/foo/01": "", "/foo/00": "",
		"/foo/-": "", "/foo/-1": "", "/foo/2": "", "/foo/1.0": "", "/foo/ 1": "",
	} {
		p, err := jsonval.ParsePointer(ptr)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if r := p.Resolve(v); r != nil {
			got = string(jsonval.Marshal(r))
		}
		if got != want {
			t.Errorf("%q resolves to %q, want %q", ptr, got, want)
		}
	}
}

// FuzzArrayIndex holds ArrayIndex to the RFC's grammar.
func FuzzArrayIndex(f *testing.F) {
	for _, s := range []string{"0", "7", "01", "+1", "-0", "-", "", "123456789", "1234567890", "9\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		n, ok := jsonval.ArrayIndex(tok)
		want := rfc6901Index.MatchString(tok) && len(tok) <= 9
		if ok != want {
			t.Fatalf("ArrayIndex(%q) ok = %v, want %v", tok, ok, want)
		}
		if ok {
			if m, _ := strconv.Atoi(tok); m != n {
				t.Fatalf("ArrayIndex(%q) = %d, want %d", tok, n, m)
			}
		}
	})
}

// FuzzParsePointer: a pointer parses exactly when every "~" is followed by
// "0" or "1"; its tokens are the "/"-separated parts, unescaped; and its
// text form is the text it was parsed from.
func FuzzParsePointer(f *testing.F) {
	for _, s := range []string{"", "/", "//", "/a/b", "/a~1b/~0", "/~", "/~2", "a", "/é/0/-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := jsonval.ParsePointer(s)
		valid := s == "" || (s[0] == '/' && !badTilde.MatchString(s))
		if (err == nil) != valid {
			t.Fatalf("ParsePointer(%q) error %v, valid %v", s, err, valid)
		}
		if err != nil {
			return
		}
		if got := p.String(); got != s {
			t.Fatalf("ParsePointer(%q).String() = %q", s, got)
		}
		if s != "" {
			parts := strings.Split(s[1:], "/")
			for i, part := range parts {
				parts[i] = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
			}
			if !reflect.DeepEqual([]string(p), parts) {
				t.Fatalf("ParsePointer(%q) = %q, want %q", s, p, parts)
			}
		}
	})
}

// badTilde matches a "~" that is not followed by "0" or "1".
var badTilde = regexp.MustCompile(`~([^01]|$)`)

// TestAppendPointerRoot: the empty pointer is the whole document, an empty
// Pointer and never nil, whatever buffer it is carved from.
func TestAppendPointerRoot(t *testing.T) {
	for _, buf := range [][]string{nil, {}, make([]string, 2, 8)} {
		p, _, err := jsonval.AppendPointer(buf, "")
		if err != nil || p == nil || len(p) != 0 {
			t.Errorf("AppendPointer(%v, \"\") = %#v, %v", buf, p, err)
		}
	}
}
