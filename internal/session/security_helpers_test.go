package session_test

// Shared by the security suite (security_*_test.go, one file per section
// of SECURITY.md): canary sets and the scan for their encoded forms,
// checkResponse (the checks every response of the suite gets), JSON
// helpers, the corpora loaders and the manifest that declares every place
// a string can reach the agent. Everything runs through Session.Call, the
// entry point every runtime shares.

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
)

// canaries are strings planted where the agent must never see them. Each
// core is "zq", ten letters and digits, and `+/"` and two more, so that its
// URL-encoded and JSON-escaped forms differ from it.
type canaries struct {
	rng   *rand.Rand
	cores []string
	forms map[string]string   // form -> core it betrays
	heads map[string][]string // first four bytes of a form -> forms
}

func newCanaries(rng *rand.Rand) *canaries {
	return &canaries{rng: rng, forms: map[string]string{}, heads: map[string][]string{}}
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func (c *canaries) randString(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[c.rng.IntN(len(alphabet))]
	}
	return string(b)
}

// text returns a new canary string.
func (c *canaries) text() string {
	core := "zq" + c.randString(10, alnum) + `+/"` + c.randString(2, alnum)
	c.register(core)
	c.register(core[:12]) // a leak of its first twelve characters is a leak
	return core
}

// digits returns a new canary of 16 digits (card-like).
func (c *canaries) digits() string {
	d := "9" + c.randString(15, "0123456789")
	c.register(d)
	return d
}

// register records core and the encoded forms in which it could escape:
// JSON-escaped, URL-encoded, hex, and base64 (standard and URL alphabets)
// at each of the three byte alignments.
func (c *canaries) register(core string) {
	c.cores = append(c.cores, core)
	add := func(f string) {
		if _, dup := c.forms[f]; len(f) >= 8 && !dup {
			c.forms[f] = core
			c.heads[f[:4]] = append(c.heads[f[:4]], f)
		}
	}
	add(core)
	j, _ := json.Marshal(core)
	add(string(j[1 : len(j)-1]))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(core)
	add(strings.TrimSpace(buf.String())[1 : len(strings.TrimSpace(buf.String()))-1])
	add(url.QueryEscape(core))
	add(url.PathEscape(core))
	add(hex.EncodeToString([]byte(core)))
	for k := 0; k < 3; k++ {
		for _, e := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			s := e.EncodeToString([]byte(strings.Repeat("\x00", k) + core))
			skip := 0
			if k > 0 {
				skip = 4
			}
			if n := (len(core) - (3-k)%3) / 3 * 4; n >= 8 && skip+n <= len(s) {
				add(s[skip : skip+n])
			}
		}
	}
}

// find returns the first canary betrayed in out, or "".
func (c *canaries) find(out []byte) string {
	for i := 0; i+4 <= len(out); i++ {
		for _, f := range c.heads[string(out[i:i+4])] {
			if bytes.HasPrefix(out[i:], []byte(f)) {
				return fmt.Sprintf("canary %q (as %q)", c.forms[f], f)
			}
		}
	}
	return ""
}

// responsesChecked counts the responses checkResponse has seen.
var responsesChecked atomic.Int64

// isInvisible reports the characters the module strips from every string
// it projects (expose.Clean, as SECURITY.md §5 says): DEL and the C1 controls,
// bidi embeddings, overrides, isolates and marks, zero-width characters,
// word joiner and invisible operators, the Arabic letter mark, the
// Mongolian vowel separator, the BOM and the tag characters that smuggle
// invisible ASCII. None may appear in any output byte.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x7f && r <= 0x9f, r == 0x061c, r == 0x180e, r >= 0x200b && r <= 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x206f, r == 0xfeff, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// checkResponse asserts what holds for every response: valid JSON, within
// the request cap's answer bound when one is given, no canary, no invisible
// character, no raw control character or line separator, and no string
// the credential net would catch.
func checkResponse(t testing.TB, what string, out []byte, cs *canaries, maxBytes int) {
	t.Helper()
	responsesChecked.Add(1)
	if !json.Valid(out) {
		t.Fatalf("%s: response is not valid JSON: %.300q", what, out)
	}
	if maxBytes > 0 && len(out) > maxBytes {
		t.Fatalf("%s: response of %d bytes exceeds maxResponseBytes %d", what, len(out), maxBytes)
	}
	if cs != nil {
		if leak := cs.find(out); leak != "" {
			t.Fatalf("%s: %s appears in the response: %.400q", what, leak, out)
		}
	}
	if i := bytes.IndexFunc(out, isInvisible); i >= 0 {
		r, _ := utf8.DecodeRune(out[i:])
		t.Fatalf("%s: response holds invisible character U+%04X", what, r)
	}
	for _, b := range out {
		if b < 0x20 {
			t.Fatalf("%s: response holds raw control byte 0x%02x", what, b)
		}
	}
	if bytes.Contains(out, []byte("\u2028")) || bytes.Contains(out, []byte("\u2029")) {
		t.Fatalf("%s: response holds a raw U+2028/U+2029", what)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	walkStrings(v, func(s string) {
		if expose.IsCredential(s) {
			t.Fatalf("%s: response holds a string the credential net catches: %.200q", what, s)
		}
	})
}

func walkStrings(v any, fn func(string)) {
	switch x := v.(type) {
	case string:
		fn(x)
	case []any:
		for _, it := range x {
			walkStrings(it, fn)
		}
	case map[string]any:
		for k, it := range x {
			fn(k)
			walkStrings(it, fn)
		}
	}
}

func mustJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func decode(t testing.TB, out []byte) map[string]any {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(out))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatalf("decode %.200q: %v", out, err)
	}
	return m
}

func num(t testing.TB, v any) int {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	i, err := strconv.Atoi(string(n))
	if err != nil {
		t.Fatal(err)
	}
	return i
}

var injections []string

func injectionCorpus(t testing.TB) []string {
	if injections != nil {
		return injections
	}
	f, err := os.Open("../../testdata/injection/strings.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct{ Kind, Text string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		injections = append(injections, e.Text)
	}
	if len(injections) < 20 {
		t.Fatalf("injection corpus has %d entries", len(injections))
	}
	return injections
}

func oneOf(v any, words ...string) bool {
	for _, w := range words {
		if v == w {
			return true
		}
	}
	return false
}

func checkKeys(t testing.TB, what string, m map[string]any, allowed ...string) {
	t.Helper()
	for k := range m {
		if !oneOf(k, allowed...) {
			t.Fatalf("%s: unexpected key %.80q (allowed %v)", what, k, allowed)
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// positionsManifest declares one of each place a string can reach the
// agent: a plain field, a user-content field, a composite field, a masked
// field, the id, state, feedback, page title and an allowed page param.
var positionsManifest = map[string]any{
	"pinhole": 1,
	"limits":  map[string]any{"maxFieldChars": 8192, "maxResponseBytes": 1 << 20},
	"page": map[string]any{"route": "/router/path", "title": "/router/title",
		"params": map[string]any{"from": "/router/query", "allow": []any{"q"}}},
	"regions": []any{map[string]any{"id": "orders", "description": "Orders"}},
	"collections": []any{map[string]any{"region": "orders", "from": "/orders", "id": "/id", "fields": map[string]any{
		"name":  map[string]any{"from": "/name"},
		"note":  map[string]any{"from": "/note", "content": "user"},
		"meta":  map[string]any{"from": "/meta"},
		"email": map[string]any{"from": "/email", "expose": "mask"},
	}}},
	"state":    map[string]any{"filter": "/ui/filter"},
	"feedback": map[string]any{"from": "/ui/toasts", "text": "/message"},
	"capabilities": []any{map[string]any{"name": "order.ship", "description": "Ship one order", "scope": "record", "region": "orders",
		"unavailable": []any{map[string]any{"when": map[string]any{"field": "/name", "eq": "blocked"}, "reason": "Blocked orders cannot ship"}}}},
}

// positionsState puts secret in every position positionsManifest declares.
func positionsState(secret string) map[string]any {
	return map[string]any{
		"router": map[string]any{"path": secret, "title": "Orders " + secret, "query": map[string]any{"q": secret}},
		"ui":     map[string]any{"filter": secret, "toasts": []any{map[string]any{"message": "Saved with " + secret}}},
		"orders": []any{
			map[string]any{"id": "SO-1", "name": secret, "note": "Customer says: " + secret, "meta": map[string]any{"auth": []any{secret}}, "email": secret},
			map[string]any{"id": secret, "name": "an order whose id is a secret"},
			map[string]any{"id": "SO-2", "meta": map[string]any{secret: 1}},
		},
	}
}

func toStrings(l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = fmt.Sprint(v)
	}
	return out
}
