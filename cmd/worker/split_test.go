package main

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// FuzzSplitArray: every array the core's parser accepts is split into its
// elements exactly (each part parses to the element), and whatever is
// split has parts that were all in the document.
func FuzzSplitArray(f *testing.F) {
	for _, s := range []string{`[1]`, `[]`, ` [ 1 , "a,]" ,{"b":[2,3]}, [[]] ] `, `["\\", "\""]`, `[{"op":"version"}]`, `[nope]`, `[1,]`, `[[`,
		`["0123456789abcdef\"ghij\\klmnop]", "unterminated, longer than a word]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		items, ok := splitArray([]byte(doc))
		v, err := jsonval.Parse([]byte(doc))
		if err != nil || v.Kind != jsonval.Array {
			return
		}
		if !ok || len(items) != len(v.Items) {
			t.Fatalf("%q: split %v into %d parts, the parser sees %d elements", doc, ok, len(items), len(v.Items))
		}
		for i, it := range items {
			p, err := jsonval.Parse(it)
			if err != nil || !jsonval.Equal(p, v.Items[i]) {
				t.Fatalf("%q part %d %q is not element %d", doc, i, it, i)
			}
		}
	})
}

// FuzzSplitObject: every object the core's parser accepts is split into
// its members exactly, names decoded as the parser decodes them.
func FuzzSplitObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, ` { "a" : [1, "]"] , "b\u0063":{"d":{}} ,"e":null} `, `{"a":1,"a":2}`, `{"a"}`, `{"\ud800":1}`,
		`{"long name, past a word":"0123456789abcdef\"ghij\\klmnop]}","b":["xxxxxxxxxxxxxxxx\u0001yyyyyyy\\",{"c":"]}]}zzzzzzzz"}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		ms, serr := splitObject([]byte(doc))
		v, err := jsonval.Parse([]byte(doc))
		if err != nil || v.Kind != jsonval.Object {
			return
		}
		if serr != nil || len(ms) != len(v.Keys) {
			t.Fatalf("%q: split (%v) into %d members, the parser sees %d", doc, serr, len(ms), len(v.Keys))
		}
		for i, m := range ms {
			p, err := jsonval.Parse(m.value)
			if m.name != v.Keys[i] || err != nil || !jsonval.Equal(p, v.Vals[i]) {
				t.Fatalf("%q member %d: %q=%q, want %q", doc, i, m.name, m.value, v.Keys[i])
			}
		}
	})
}

func TestCopiesInPatch(t *testing.T) {
	for req, want := range map[string]bool{
		`{"op":"observe","patch":[{"op":"copy","from":"/a","path":"/b"}]}`:                                    true,
		`{"patch":[{"path":"/b","op":"add","value":1},{"from":"/a","op":"copy","path":"/c"}],"op":"observe"}`: true,
		`{"op":"observe","p\u0061tch":[{"op":"c\u006fpy","from":"/a","path":"/b"}]}`:                          true,
		`{"op":"\u006fbserve","patch":[{"op":"copy","from":"/a","path":"/b"}]}`:                               true,
		`{"op":"observe","patch":[{"op":"move","from":"/a","path":"/b"}]}`:                                    false,
		`{"op":"observe","patch":[{"op":"add","path":"/b","value":{"op":"copy"}}]}`:                           false,
		`{"op":"observe","state":{"patch":[{"op":"copy"}]}}`:                                                  false,
		`{"op":"describe","patch":[{"op":"copy"}]}`:                                                           false,
		`{"op":"observe","patch":[{"op":"copy","from":"/a","path":"/b"}]`:                                     false, // not JSON: the core refuses it
		`{"op":"observe","patch":{"op":"copy"}}`:                                                              false, // not an array: the core refuses it
	} {
		if got := copiesInPatch([]byte(req)); got != want {
			t.Errorf("%s: %v, want %v", req, got, want)
		}
	}
}

// skipValueBytes is what skipValue must answer: the same scan read one
// byte at a time, without skipping string contents a word at a time.
func skipValueBytes(doc []byte, i int) (int, bool) {
	var open []byte
	inStr, esc := false, false
	for j := i; j < len(doc); j++ {
		c := doc[j]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
				if len(open) == 0 {
					return j + 1, true
				}
			}
			continue
		}
		switch c {
		case '"':
			if len(open) == 0 && j > i {
				return 0, false
			}
			inStr = true
		case '[', '{':
			if len(open) == 0 && j > i {
				return 0, false
			}
			open = append(open, c)
		case ']', '}':
			if len(open) == 0 {
				return j, j > i
			}
			if (c == ']') != (open[len(open)-1] == '[') {
				return 0, false
			}
			if open = open[:len(open)-1]; len(open) == 0 {
				return j + 1, true
			}
		case ',', ':', ' ', '\t', '\r', '\n':
			if len(open) == 0 {
				return j, j > i
			}
		}
	}
	return 0, false
}

// FuzzSkipValue: skipValue, which skips string contents eight bytes a
// step, ends every value where a byte-by-byte scan ends it, valid JSON or
// not, from any starting point.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`"0123456789abcdef\"ghij\\klmnop"`, `{"a":"]}]}xxxxxxxx\\\\"}`, "[\"\x01\x1f long enough \"]", `"\\"`, `"unterminated and long`, `["é, ü: not ASCII, past a word", 1]`} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, doc string, i int) {
		if i < 0 || i > len(doc) {
			return
		}
		end, ok := skipValue([]byte(doc), i)
		wantEnd, wantOK := skipValueBytes([]byte(doc), i)
		if end != wantEnd || ok != wantOK {
			t.Fatalf("%q from %d: %d %v, want %d %v", doc, i, end, ok, wantEnd, wantOK)
		}
	})
}
