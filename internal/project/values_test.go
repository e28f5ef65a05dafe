package project

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
)

// refClean is the whole cleaned encoding of v, built the obvious way.
func refClean(v *jsonval.Value) string {
	switch v.Kind {
	case jsonval.String:
		return string(jsonval.AppendString(nil, expose.Clean(v.S)))
	case jsonval.Array:
		parts := []string{}
		for _, it := range v.Items {
			parts = append(parts, refClean(it))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case jsonval.Object:
		parts := []string{}
		for i, k := range v.Keys {
			parts = append(parts, string(jsonval.AppendString(nil, expose.Clean(k)))+":"+refClean(v.Vals[i]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return string(jsonval.Marshal(v))
}

// A composite value is shown whole when its cleaned encoding fits max
// characters, and otherwise dropped with its exact length, whichever way
// the encoding crosses the point where plain stops keeping it.
func TestPlainComposite(t *testing.T) {
	values := []string{
		`[]`, `{}`, `[1,2.50,-3e7,true,false,null]`, `{"a":{"b":[{"c":"d"}]}}`,
		`["héllo wörld","日本語テキスト","😀😀😀😀"]`, `{"ключ":"значение","x":["\u0001\u001f\"\\"]}`,
		`["a\u200bb\u2060c\ufeffd","\u2028\u2029"]`, "[\"\xff\xfe\",\"ok\"]",
		`[` + strings.Repeat(`"😀😀",`, 40) + `1]`, `{"` + strings.Repeat("é", 30) + `":[` + strings.Repeat(`"\u0007",`, 30) + `0]}`,
	}
	for _, text := range values {
		v, err := jsonval.Parse([]byte(text))
		if err != nil {
			v = &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{jsonval.NewString("\xff\xfe"), jsonval.NewString("ok")}}
		}
		want := refClean(v)
		n := utf8.RuneCountInString(want)
		for _, max := range []int{0, 1, 2, n/4 - 1, n / 4, n/4 + 1, n / 2, n - 1, n, n + 1, 4 * n, 4*n + 1} {
			if max < 0 {
				continue
			}
			o := plain(v, max, "")
			switch {
			case n <= max && (string(o.json) != want || o.truncated):
				t.Errorf("%s at %d: %s truncated %v, want it whole", text, max, o.json, o.truncated)
			case n > max && (string(o.json) != "null" || !o.truncated || o.origLen != n):
				t.Errorf("%s at %d: %s truncated %v length %d, want null and %d", text, max, o.json, o.truncated, o.origLen, n)
			}
		}
	}
}

// A large composite value costs a walk, not its encoding: showing an 11 MB
// array as cut allocates far less than the array's encoding. (A string
// with characters outside ASCII is cleaned into a copy, one at a time; one
// with a control character is also folded into a copy by the credential
// net: garbage at once, but it would count here, so the escaped character
// is a quote.)
func TestPlainCompositeLargeValue(t *testing.T) {
	items := make([]*jsonval.Value, 1<<19)
	for i := range items {
		items[i] = jsonval.NewString("item-value-\"--")
	}
	v := &jsonval.Value{Kind: jsonval.Array, Items: items}
	want := utf8.RuneCountInString(refClean(v))
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	o := plain(v, 512, "")
	runtime.ReadMemStats(&m1)
	if !o.truncated || o.origLen != want || string(o.json) != "null" {
		t.Fatalf("truncated %v, length %d (want %d), %s", o.truncated, o.origLen, want, o.json)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<20 {
		t.Fatalf("plain allocated %d bytes for a value of %d characters", a, want)
	}
}

// TestRedactedJSON: the constant stands for expose.Redacted as the encoder
// writes it.
func TestRedactedJSON(t *testing.T) {
	if want := string(jsonval.AppendString(nil, expose.Redacted)); string(redactedJSON) != want {
		t.Fatalf("redactedJSON = %s, want %s", redactedJSON, want)
	}
}
