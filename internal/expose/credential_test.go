package expose_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
)

// corpusEntry is one line of testdata/credentials/*.jsonl.
type corpusEntry struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Value    string `json:"value"`
}

func readCorpus(t testing.TB, name string) []corpusEntry {
	t.Helper()
	f, err := os.Open("../../testdata/credentials/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e corpusEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s is empty", name)
	}
	return out
}

// contexts are the ways a secret reaches a string the module projects: as
// the whole value, inside a sentence, inside a JSON blob kept as text, and
// split by invisible characters (which the module strips on output).
var contexts = []struct {
	name string
	wrap func(string) string
}{
	{"whole", func(s string) string { return s }},
	{"sentence", func(s string) string { return "Note from support: " + s + " — please keep it safe." }},
	{"json-text", func(s string) string { b, _ := json.Marshal(map[string]string{"debug": s}); return string(b) }},
	{"zero-width-split", splitInvisible},
}

// splitInvisible puts invisible characters (zero-width space, bidi isolate,
// soft hyphen, BOM, a tag character, DEL, a C1 control) into s every few
// bytes, between ASCII bytes.
func splitInvisible(s string) string {
	var b strings.Builder
	marks := []string{"\u200b", "\u2066", "\u00ad", "\ufeff", "\U000E0020", "\x7f", "\u0085"}
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if i%5 == 4 && s[i] < 0x80 && i+1 < len(s) && s[i+1] < 0x80 {
			b.WriteString(marks[(i/5)%len(marks)])
		}
	}
	return b.String()
}

// TestCredentialCorpus measures the net on testdata/credentials: every
// secret, in every context, must be caught (recall 100%), and no look-alike
// may be (no business data destroyed). It prints the figures SECURITY.md
// quotes.
func TestCredentialCorpus(t *testing.T) {
	secrets := readCorpus(t, "secrets.jsonl")
	looks := readCorpus(t, "lookalikes.jsonl")
	tp, fn := 0, 0
	kinds := map[string]bool{}
	for _, e := range secrets {
		kinds[e.Kind] = true
		for _, c := range contexts {
			if expose.IsCredential(c.wrap(e.Value)) {
				tp++
			} else {
				fn++
				t.Errorf("missed %s (%s) in context %s: %q", e.Kind, e.Provider, c.name, c.wrap(e.Value))
			}
		}
	}
	fp, tn := 0, 0
	for _, e := range looks {
		for _, c := range contexts[:2] { // whole and in a sentence
			if expose.IsCredential(c.wrap(e.Value)) {
				fp++
				t.Errorf("look-alike %s redacted in context %s: %q", e.Kind, c.name, c.wrap(e.Value))
			} else {
				tn++
			}
		}
	}
	recall := float64(tp) / float64(tp+fn)
	precision := 1.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	fmt.Printf("credential net: %d secrets (%d kinds) x %d contexts, %d look-alikes x 2 contexts\n",
		len(secrets), len(kinds), len(contexts), len(looks))
	fmt.Printf("credential net: recall %.1f%% (%d/%d), precision %.1f%% (false positives %d/%d look-alike checks)\n",
		100*recall, tp, tp+fn, 100*precision, fp, fp+tn)
	for _, want := range []string{"jwt", "bearer", "basic", "cookie", "pem", "aws", "gcp", "azure", "github", "slack", "stripe"} {
		if !kinds[want] {
			t.Errorf("the corpus has no %s entries", want)
		}
	}
}

// TestBusinessStringsPass runs the net over every string of the bundled
// orders example: the only credential there is the session token.
func TestBusinessStringsPass(t *testing.T) {
	data, err := os.ReadFile("../../testdata/orders/state.json")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	n, caught := 0, []string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case string:
			n++
			if expose.IsCredential(x) {
				caught = append(caught, path)
			}
		case []any:
			for i, it := range x {
				walk(fmt.Sprintf("%s/%d", path, i), it)
			}
		case map[string]any:
			for k, it := range x {
				walk(path+"/"+k, it)
			}
		}
	}
	walk("", v)
	if n < 500 {
		t.Fatalf("only %d strings in the orders example", n)
	}
	if len(caught) != 1 || caught[0] != "/session/token" {
		t.Fatalf("the net caught %v in the orders example; want only /session/token", caught)
	}
	fmt.Printf("credential net: %d business strings of testdata/orders/state.json, 1 caught (/session/token)\n", n)
}

func TestIsCredentialCases(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"", false},
		{"short", false},
		{"Bearer abc", false}, // too short to be a token
		{"Bearer abcdefghijklmnopqrstuvwxyz", false},      // a word, not a token
		{"Bearer 2YotnFZFEjr1zCsicMWpAA", true},           // RFC 6749 example
		{"Basic plan for small teams", false},             // "plan" is not base64 of user:pass
		{"Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", true},      // RFC 7617 example
		{"password: please ask the administrator", false}, // prose
		{"password: hunter22", true},
		{"password=hunter", true},
		{"Tokens: 5 left", false},
		{"AKIAIOSFODNN7EXAMPLE", true},
		{"AKIAIOSFODNN7EXAMPLE1", false}, // 17 characters: not an access key id
		{"https://user@example.com/", false},
		{"https://user:pw@example.com/", true},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", true},
		{"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", false}, // public
		{"-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----", true},
		{"sort=-created; filter=status_open_2026_11", false},
		{"ghp_" + strings.Repeat("a", 36), false}, // no digit: not a generated token
		{"ghp_" + strings.Repeat("a1", 18), true},
	}
	for _, c := range cases {
		if got := expose.IsCredential(c.in); got != c.want {
			t.Errorf("IsCredential(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestIsCredentialLinear guards against quadratic scans: a 4 MB string of
// repeated near-misses is checked in well under a second.
func TestIsCredentialLinear(t *testing.T) {
	for _, unit := range []string{"://a:", "Bearer ", "-----BEGIN ", "token=", "eyJ.", "a=1; ", "\u200bx"} {
		s := strings.Repeat(unit, (4<<20)/len(unit))
		start := time.Now()
		expose.IsCredential(s)
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("IsCredential on 4 MB of %q took %v", unit, d)
		}
	}
}

func FuzzIsCredential(f *testing.F) {
	for _, e := range []string{"Bearer 2YotnFZFEjr1zCsicMWpAA", "SO-1002", "a=1; sid=AbC123dEf456GhI789", "https://u:p@h/"} {
		f.Add(e)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // the module never holds invalid UTF-8: its parser rejects it
		}
		got := expose.IsCredential(s)
		// Invisible characters never hide a secret: the module strips them
		// on output, so the net must judge the text as it will be read.
		if c := expose.Clean(s); expose.IsCredential(c) != got {
			t.Fatalf("IsCredential(%q) = %v but IsCredential(Clean(...)) = %v", s, got, !got)
		}
		if got && len(s) < 8 {
			t.Fatalf("caught a %d-byte string", len(s))
		}
	})
}
