package session_test

// The security suite of the module (SECURITY.md says what each test
// guarantees): the canary property test, the credential corpus in every
// position a string can reach, prompt injection, and bounds under attack.
// Everything runs through Session.Call, the entry point every runtime
// shares, and every response of every test goes through checkResponse.

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
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/session"
)

// ---------------------------------------------------------------------------
// Canaries

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

// ---------------------------------------------------------------------------
// Checks every response gets

// responsesChecked counts the responses checkResponse has seen.
var responsesChecked atomic.Int64

// isInvisible reports the characters the module strips from every string
// it projects (expose.Clean, docs/context-model.md#truncation-and-cuts): DEL and the C1 controls,
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

// ---------------------------------------------------------------------------
// Random worlds: a manifest, a state with canaries, and what a describe of
// it must say.

type genField struct {
	name, from, expose string
	user               bool
}

type genColl struct {
	region    int
	from      string
	idPtr     string
	fields    []genField
	condField string // item-relative, read only by conditions
}

type world struct {
	rng      *rand.Rand
	cs       *canaries
	manifest map[string]any
	state    map[string]any

	regionActive []bool
	regionIDs    []string
	colls        []genColl
	stateNames   []string
	allow        []string
	caps         map[string]capInfo // name -> what the agent must see
	maxBytes     int
	maxLimit     int
	maxRecordIds int
	maxFeedback  int

	// Expected projection of the current state.
	total    int
	ids      []string       // referenceable ids in view order
	idColl   map[string]int // id -> collection
	feedback int
	// held are ids whose record-scope capabilities are available.
	held []string
	// pruned are the canaries of undeclared places.
	pruned []string
	// tokens maps an alias or placeholder token seen in a describe to the
	// canary it stands for (filled by describes, used by prepare).
	tokens map[string]string
}

type capInfo struct {
	description string
	scope       string
	region      string
	reasons     map[string]bool
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

// plainValue is a random declared value: words, numbers, nested objects,
// injection text, invisible characters, nulls.
func (w *world) plainValue(t testing.TB, depth int) any {
	switch w.rng.IntN(9) {
	case 0:
		return nil
	case 1:
		return w.rng.IntN(100000)
	case 2:
		return w.rng.Float64() * 1000
	case 3:
		return w.rng.IntN(2) == 0
	case 4:
		inj := injectionCorpus(t)
		return inj[w.rng.IntN(len(inj))]
	case 5:
		if depth < 3 {
			return map[string]any{"a": w.plainValue(t, depth+1), "b\u202ekey": w.plainValue(t, depth+1)}
		}
	case 6:
		if depth < 3 {
			return []any{w.plainValue(t, depth+1), w.plainValue(t, depth+1)}
		}
	case 7:
		return strings.Repeat("long text ", w.rng.IntN(200))
	}
	return "Value \u200b" + w.cs.randString(6, alnum)
}

// protectedValue is a canary in one of the shapes masked, aliased and
// placeholder values take.
func (w *world) protectedValue() any {
	switch w.rng.IntN(5) {
	case 0:
		return w.cs.text() + "@example.com"
	case 1:
		d := w.cs.digits()
		spaced := d[:4] + " " + d[4:8] + " " + d[8:12] + " " + d[12:]
		w.cs.register(spaced)
		return spaced
	case 2:
		return json.Number(w.cs.digits())
	case 3:
		return map[string]any{"number": w.cs.text(), "exp": "12/29"}
	}
	return w.cs.text()
}

func setPath(root map[string]any, ptr string, v any) {
	toks := strings.Split(ptr[1:], "/")
	m := root
	for _, tok := range toks[:len(toks)-1] {
		next, ok := m[tok].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[tok] = next
		}
		m = next
	}
	m[toks[len(toks)-1]] = v
}

// undeclared returns a canary for an undeclared place: it must not even
// survive the module's pruning of the state.
func (w *world) undeclared() string {
	c := w.cs.text()
	w.pruned = append(w.pruned, c)
	return c
}

// plantUndeclared adds canary keys and values to every object that is not a
// declared value, recursing into containers; leaves are the declared
// pointers (relative to the node).
func (w *world) plantUndeclared(node any, at string, leaves map[string]bool) {
	if leaves[at] {
		return
	}
	switch x := node.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w.plantUndeclared(x[k], at+"/"+k, leaves)
		}
		c := w.undeclared()
		x[c] = c[:12]
		if w.rng.IntN(2) == 0 {
			x["undeclared"] = map[string]any{"nested": []any{w.undeclared(), json.Number(w.cs.digits())}}
		}
	case []any:
		for i, it := range x {
			w.plantUndeclared(it, at+"/"+strconv.Itoa(i), leaves)
		}
	}
}

// newWorld builds a random manifest and state.
func newWorld(t testing.TB, seed uint64) *world {
	rng := rand.New(rand.NewPCG(seed, 0x5eC))
	w := &world{rng: rng, cs: newCanaries(rng), state: map[string]any{}, caps: map[string]capInfo{}, tokens: map[string]string{}}
	w.maxLimit = 5 + rng.IntN(30)
	w.maxRecordIds = 5 + rng.IntN(60)
	w.maxFeedback = 1 + rng.IntN(6)
	w.maxBytes = 4096 + rng.IntN(12000)
	limits := map[string]any{"defaultLimit": 1 + rng.IntN(w.maxLimit), "maxLimit": w.maxLimit,
		"maxRecordIds": w.maxRecordIds, "maxFieldChars": 8 + rng.IntN(300), "maxFeedback": w.maxFeedback,
		"maxUnavailable": 1 + rng.IntN(10), "maxResponseBytes": w.maxBytes}
	leaves := map[string]bool{}

	// Regions: each active when its flag is true (and its parent active).
	var regions []any
	nr := 1 + rng.IntN(4)
	for i := 0; i < nr; i++ {
		id := "r" + strconv.Itoa(i)
		r := map[string]any{"id": id, "description": "Region " + id}
		flag := rng.IntN(4) > 0
		if i > 0 {
			r["activeWhen"] = map[string]any{"path": "/ui/flags/r" + strconv.Itoa(i), "eq": true}
			setPath(w.state, "/ui/flags/r"+strconv.Itoa(i), flag)
			leaves["/ui/flags/r"+strconv.Itoa(i)] = true
		} else {
			flag = true
		}
		active := flag
		if i > 0 && rng.IntN(2) == 0 {
			p := rng.IntN(i)
			r["parent"] = "r" + strconv.Itoa(p)
			active = active && w.regionActive[p]
		}
		w.regionActive = append(w.regionActive, active)
		w.regionIDs = append(w.regionIDs, id)
		regions = append(regions, r)
	}

	// Collections.
	var colls []any
	itemLeaves := map[string]map[string]bool{}
	for ci, nc := 0, 1+rng.IntN(3); ci < nc; ci++ {
		c := genColl{region: rng.IntN(nr), from: fmt.Sprintf("/data%d/items", ci), idPtr: "/id", condField: "/flags/hold"}
		if rng.IntN(2) == 0 {
			c.idPtr = "/meta/key"
		}
		fields := map[string]any{}
		il := map[string]bool{c.idPtr: true, c.condField: true}
		for fi, nf := 0, 1+rng.IntN(6); fi < nf; fi++ {
			f := genField{name: "f" + strconv.Itoa(fi), from: fmt.Sprintf("/v%d", fi), expose: "plain"}
			if rng.IntN(2) == 0 {
				f.from = fmt.Sprintf("/n%d/v", fi)
			}
			f.expose = []string{"plain", "plain", "mask", "alias", "placeholder"}[rng.IntN(5)]
			f.user = rng.IntN(3) == 0
			spec := map[string]any{"from": f.from, "expose": f.expose}
			if f.user {
				spec["content"] = "user"
			}
			if rng.IntN(3) == 0 {
				spec["maxChars"] = 1 + rng.IntN(100)
			}
			fields[f.name] = spec
			il[f.from] = true
			c.fields = append(c.fields, f)
		}
		colls = append(colls, map[string]any{"region": "r" + strconv.Itoa(c.region), "from": c.from, "id": c.idPtr, "fields": fields})
		w.colls = append(w.colls, c)
		itemLeaves[c.from] = il
	}

	// Items.
	// Every item that shares its id with another names nothing.
	carriers := map[string]int{}
	type cand struct {
		id   string
		ci   int
		held bool
	}
	var cands []cand
	w.idColl = map[string]int{}
	for ci, c := range w.colls {
		var items []any
		for i, n := 0, rng.IntN(40); i < n; i++ {
			item := map[string]any{}
			var id any = fmt.Sprintf("R-%d-%d", ci, i)
			valid := true
			switch rng.IntN(12) {
			case 0:
				id, valid = nil, false
			case 1:
				id = json.Number(strconv.Itoa(ci*1000 + i))
			case 2:
				id, valid = "bad\u202eid", false
			case 3:
				id, valid = "Bearer 2YotnFZFEjr1zCsicMWpAA", false
			case 4:
				id, valid = strings.Repeat("x", 129), false
			case 5:
				if i > 0 {
					id = fmt.Sprintf("R-%d-%d", ci, i-1) // a duplicate
				}
			}
			if id != nil {
				setPath(item, c.idPtr, id)
			}
			idText := fmt.Sprint(id)
			if valid && w.regionActive[c.region] {
				carriers[idText]++
				cands = append(cands, cand{id: idText, ci: ci})
			}
			if w.regionActive[c.region] {
				w.total++
			}
			for _, f := range c.fields {
				if rng.IntN(8) == 0 {
					continue // absent
				}
				if f.expose == "plain" {
					setPath(item, f.from, w.plainValue(t, 0))
				} else {
					setPath(item, f.from, w.protectedValue())
				}
			}
			// Read only by a condition: a canary, or the word that holds.
			if rng.IntN(2) == 0 {
				setPath(item, c.condField, "hold")
				if valid && w.regionActive[c.region] {
					cands[len(cands)-1].held = true
				}
			} else {
				setPath(item, c.condField, w.cs.text())
			}
			items = append(items, item)
		}
		setPath(w.state, c.from, items)
	}
	for _, cd := range cands {
		if carriers[cd.id] == 1 {
			w.ids = append(w.ids, cd.id)
			w.idColl[cd.id] = cd.ci
			if cd.held {
				w.held = append(w.held, cd.id)
			}
		}
	}
	for _, c := range w.colls {
		w.plantUndeclaredIn(c.from, itemLeaves[c.from])
	}

	m := map[string]any{"pinhole": 1, "limits": limits, "regions": regions, "collections": colls}

	// Page, with undeclared params next to the allowed ones.
	if rng.IntN(4) > 0 {
		m["page"] = map[string]any{"route": "/router/path", "title": "/router/title",
			"params": map[string]any{"from": "/router/query", "allow": []any{"status", "q"}}}
		w.allow = []string{"status", "q"}
		setPath(w.state, "/router/path", "/orders")
		setPath(w.state, "/router/title", w.plainValue(t, 2))
		setPath(w.state, "/router/query/status", "open")
		setPath(w.state, "/router/query/q", w.plainValue(t, 2))
		setPath(w.state, "/router/query/debug", w.undeclared())
		for _, p := range []string{"/router/path", "/router/title", "/router/query/status", "/router/query/q"} {
			leaves[p] = true
		}
	}
	// Declared state.
	st := map[string]any{}
	for i, n := 0, rng.IntN(4); i < n; i++ {
		name := "s" + strconv.Itoa(i)
		st[name] = "/app/state/" + name
		w.stateNames = append(w.stateNames, name)
		setPath(w.state, "/app/state/"+name, w.plainValue(t, 0))
		leaves["/app/state/"+name] = true
	}
	// A state key that points into an array: the other items, and the
	// other members of the item, are undeclared.
	if rng.IntN(2) == 0 {
		list := make([]any, 4)
		for i := range list {
			list[i] = map[string]any{"name": w.undeclared(), "secret": w.undeclared(), w.undeclared(): []any{w.undeclared()}}
		}
		list[2].(map[string]any)["name"] = "visible name"
		setPath(w.state, "/app/list", list)
		st["picked"] = "/app/list/2/name"
		w.stateNames = append(w.stateNames, "picked")
		leaves["/app/list"] = true // planted above, not by the walker
	}
	m["state"] = st
	// Feedback.
	if rng.IntN(3) > 0 {
		m["feedback"] = map[string]any{"from": "/ui/toasts", "text": "/message", "level": "/kind", "source": "/origin"}
		var toasts []any
		for i, n := 0, rng.IntN(12); i < n; i++ {
			toast := map[string]any{"kind": []string{"error", "info", "admin", w.cs.text()}[rng.IntN(4)],
				"origin": []string{"server", "app", w.cs.text()}[rng.IntN(3)], "requestBody": w.undeclared()}
			if rng.IntN(6) > 0 {
				toast["message"] = w.plainValue(t, 2)
				if _, ok := toast["message"].(string); ok {
					w.feedback++
				}
			}
			toasts = append(toasts, toast)
		}
		setPath(w.state, "/ui/toasts", toasts)
		w.plantUndeclaredIn("/ui/toasts", map[string]bool{"/message": true})
	}
	// Session scope and redescribeOn: read, never shown.
	m["sessionScope"] = "/session/tenant"
	setPath(w.state, "/session/tenant", w.cs.text())
	leaves["/session/tenant"] = true
	m["redescribeOn"] = []any{"/app/sort"}
	setPath(w.state, "/app/sort", w.cs.text())
	leaves["/app/sort"] = true
	setPath(w.state, "/session/token", "eyJhbGciOiJIUzI1NiJ9."+w.undeclared()+".sig")
	if rng.IntN(2) == 0 {
		setPath(w.state, "/session/role", "manager") // page capabilities available
	} else {
		setPath(w.state, "/session/role", w.cs.text())
	}
	leaves["/session/role"] = true

	// Capabilities with app-authored reasons; conditions read canaries.
	caps := []any{}
	for i, n := 0, rng.IntN(5); i < n; i++ {
		name := fmt.Sprintf("cap%d.run", i)
		region := rng.IntN(nr)
		scope := "page"
		if rng.IntN(2) == 0 && len(w.colls) > 0 {
			scope = "record"
		}
		reason := fmt.Sprintf("Reason %d from the application", i)
		cp := map[string]any{"name": name, "description": "Capability " + strconv.Itoa(i), "scope": scope,
			"region": "r" + strconv.Itoa(region),
			"input":  map[string]any{"type": "object", "properties": map[string]any{"ref": map[string]any{}, "note": map[string]any{"type": "string"}}}}
		var when any = map[string]any{"path": "/session/role", "ne": "manager"}
		if scope == "record" {
			when = map[string]any{"field": "/flags/hold", "ne": "hold"}
		}
		cp["unavailable"] = []any{map[string]any{"when": when, "reason": reason}}
		caps = append(caps, cp)
		if w.regionActive[region] {
			w.caps[name] = capInfo{description: "Capability " + strconv.Itoa(i), scope: scope,
				region: "r" + strconv.Itoa(region), reasons: map[string]bool{reason: true}}
		}
	}
	m["capabilities"] = caps
	w.manifest = m

	// Undeclared data everywhere else.
	w.state["secrets"] = map[string]any{"apiKey": w.undeclared(), "nested": []any{map[string]any{w.undeclared(): w.undeclared()}}}
	w.plantUndeclaredTop(leaves, itemLeaves)
	return w
}

// plantUndeclaredIn plants canaries in each item of the array at from.
func (w *world) plantUndeclaredIn(from string, itemLeaves map[string]bool) {
	arr := resolve(w.state, from)
	items, _ := arr.([]any)
	for _, it := range items {
		w.plantUndeclared(it, "", itemLeaves)
	}
}

// plantUndeclaredTop plants canaries in every object on the way to the
// declared values, without entering declared values or collections.
func (w *world) plantUndeclaredTop(leaves map[string]bool, colls map[string]map[string]bool) {
	skip := map[string]bool{}
	for k := range leaves {
		skip[k] = true
	}
	for k := range colls {
		skip[k] = true
	}
	skip["/ui/toasts"] = true
	var walk func(node any, at string)
	walk = func(node any, at string) {
		if skip[at] {
			return
		}
		if m, ok := node.(map[string]any); ok {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(m[k], at+"/"+k)
			}
			m[w.undeclared()] = map[string]any{"deep": w.undeclared()}
		}
	}
	walk(w.state, "")
}

func resolve(root any, ptr string) any {
	v := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[tok]
	}
	return v
}

// ---------------------------------------------------------------------------
// Driving a session

type driver struct {
	t testing.TB
	w *world
	s *session.Session
}

func (d *driver) call(what string, req any) map[string]any {
	d.t.Helper()
	out := d.s.Call(mustJSON(req))
	max := 0
	if m, ok := req.(map[string]any); ok && m["op"] == "describe" {
		max = d.w.maxBytes
	}
	checkResponse(d.t, what, out, d.w.cs, max)
	return decode(d.t, out)
}

// checkDescribe verifies a describe response against the world: totals,
// window arithmetic, bounds, and that capability names, descriptions and
// reasons are exactly the manifest's.
func (d *driver) checkDescribe(what string, r map[string]any, offset, limit int, selection []string) {
	t, w := d.t, d.w
	t.Helper()
	if r["error"] != nil {
		if e := r["error"].(map[string]any); e["code"] != "state_too_large" {
			t.Fatalf("%s: unexpected error %v", what, e)
		}
		return
	}
	ctx := r["context"].(map[string]any)
	if got := num(t, ctx["recordsTotal"]); got != w.total {
		t.Fatalf("%s: recordsTotal %d, want %d", what, got, w.total)
	}
	if got := num(t, ctx["recordIdsTotal"]); got != len(w.ids) {
		t.Fatalf("%s: recordIdsTotal %d, want %d", what, got, len(w.ids))
	}
	ids := ctx["recordIds"].([]any)
	if len(ids) > w.maxRecordIds || len(ids) > len(w.ids) {
		t.Fatalf("%s: %d recordIds (max %d, total %d)", what, len(ids), w.maxRecordIds, len(w.ids))
	}
	for i, id := range ids {
		if id != w.ids[i] {
			t.Fatalf("%s: recordIds[%d] = %v, want %v", what, i, id, w.ids[i])
		}
	}
	if got := num(t, ctx["feedbackTotal"]); got != w.feedback {
		t.Fatalf("%s: feedbackTotal %d, want %d", what, got, w.feedback)
	}
	if fb := ctx["feedback"].([]any); len(fb) > w.maxFeedback || len(fb) > w.feedback {
		t.Fatalf("%s: %d feedback items (max %d, total %d)", what, len(fb), w.maxFeedback, w.feedback)
	}
	for _, it := range ctx["feedback"].([]any) {
		f := it.(map[string]any)
		if !oneOf(f["level"], "error", "warning", "info", "success") || !oneOf(f["source"], "app", "server", "user", "system", "validation", "unknown") {
			t.Fatalf("%s: feedback level/source not from the fixed vocabulary: %v", what, f)
		}
	}
	recs := ctx["records"].([]any)
	if selection == nil {
		want := len(w.ids) - offset
		if want > limit {
			want = limit
		}
		if want < 0 {
			want = 0
		}
		if len(recs) > want {
			t.Fatalf("%s: %d records, want at most %d", what, len(recs), want)
		}
		for i, rec := range recs {
			if id := rec.(map[string]any)["id"]; id != w.ids[offset+i] {
				t.Fatalf("%s: records[%d].id = %v, want %v", what, i, id, w.ids[offset+i])
			}
		}
		if win, ok := ctx["recordWindow"].(map[string]any); ok {
			if num(t, win["returned"]) != len(recs) || num(t, win["total"]) != len(w.ids) || num(t, win["offset"]) != offset {
				t.Fatalf("%s: window %v does not match %d records of %d at %d", what, win, len(recs), len(w.ids), offset)
			}
			next, has := win["next"]
			if end := offset + len(recs); end < len(w.ids) {
				if !has || num(t, next) != end {
					t.Fatalf("%s: window %v: next should be %d", what, win, end)
				}
			} else if has {
				t.Fatalf("%s: window %v: nothing follows, next must be absent", what, win)
			}
		} else if len(recs) != len(w.ids) {
			t.Fatalf("%s: %d of %d records and no recordWindow", what, len(recs), len(w.ids))
		}
	} else {
		if len(recs) > len(selection) {
			t.Fatalf("%s: %d records for %d ids", what, len(recs), len(selection))
		}
		if len(recs) < len(selection) && ctx["recordWindow"] == nil {
			t.Fatalf("%s: records dropped without a window", what)
		}
		for i, rec := range recs {
			if id := rec.(map[string]any)["id"]; id != selection[i] {
				t.Fatalf("%s: records[%d].id = %v, want %v", what, i, id, selection[i])
			}
		}
	}
	for _, rec := range recs {
		d.checkRecord(what, rec.(map[string]any))
	}
	// Capabilities: exactly the active ones, as the manifest says.
	caps := r["capabilities"].([]any)
	if len(caps) != len(w.caps) {
		t.Fatalf("%s: %d capabilities, want %d", what, len(caps), len(w.caps))
	}
	for _, c := range caps {
		cm := c.(map[string]any)
		info, ok := w.caps[fmt.Sprint(cm["name"])]
		if !ok || cm["description"] != info.description || cm["scope"] != info.scope || cm["region"] != info.region {
			t.Fatalf("%s: capability %v is not the manifest's", what, cm)
		}
		checkKeys(t, what+" capability", cm, "name", "description", "scope", "region", "input")
	}
	un := ctx["unavailable"].([]any)
	if total := num(t, ctx["unavailableTotal"]); total < len(un) {
		t.Fatalf("%s: unavailableTotal %d < %d entries", what, total, len(un))
	}
	for _, u := range un {
		um := u.(map[string]any)
		info, ok := w.caps[fmt.Sprint(um["capability"])]
		if !ok || !info.reasons[fmt.Sprint(um["reason"])] {
			t.Fatalf("%s: unavailable entry %v: capability or reason not the manifest's", what, um)
		}
		checkKeys(t, what+" unavailable", um, "capability", "record", "reason")
	}
	// Data never becomes a key of the response's structure.
	checkKeys(t, what, r, "snapshot", "limits", "capabilities", "context")
	checkKeys(t, what+" context", ctx, "page", "regions", "records", "recordIds", "recordIdsTotal", "recordWindow",
		"recordsTotal", "duplicatesTotal", "cutTotal", "state", "stateTruncated", "stateCut", "feedback", "feedbackTotal", "unavailable", "unavailableTotal")
	if st, ok := ctx["state"].(map[string]any); ok {
		checkKeys(t, what+" state", st, w.stateNames...)
	}
	if pg, ok := ctx["page"].(map[string]any); ok {
		checkKeys(t, what+" page", pg, "route", "title", "params", "truncated")
		if ps, ok := pg["params"].(map[string]any); ok {
			checkKeys(t, what+" params", ps, w.allow...)
		}
		if tr, ok := pg["truncated"].(map[string]any); ok {
			names := []string{"route", "title"}
			for _, a := range w.allow {
				names = append(names, "params/"+a)
			}
			checkKeys(t, what+" page truncated", tr, names...)
		}
	}
	for _, rg := range ctx["regions"].([]any) {
		rm := rg.(map[string]any)
		checkKeys(t, what+" region", rm, "id", "parent", "description")
		if !strings.HasPrefix(fmt.Sprint(rm["description"]), "Region r") {
			t.Fatalf("%s: region description %v is not the manifest's", what, rm["description"])
		}
	}
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

// checkRecord: field names are the manifest's, user content is flagged,
// protected fields show only tokens and masks, and tokens are remembered
// for prepare.
func (d *driver) checkRecord(what string, rec map[string]any) {
	t, w := d.t, d.w
	t.Helper()
	checkKeys(t, what+" record", rec, "id", "region", "fields", "truncated", "redacted", "cut", "userContent")
	ci, ok := w.idColl[fmt.Sprint(rec["id"])]
	if !ok {
		t.Fatalf("%s: record id %v is not referenceable", what, rec["id"])
	}
	c := w.colls[ci]
	names := []string{}
	for _, f := range c.fields {
		names = append(names, f.name)
	}
	fields := rec["fields"].(map[string]any)
	checkKeys(t, what+" fields", fields, names...)
	user := map[string]bool{}
	for _, u := range asList(rec["userContent"]) {
		user[fmt.Sprint(u)] = true
	}
	for _, f := range c.fields {
		v, present := fields[f.name]
		if present && f.user && !user[f.name] {
			t.Fatalf("%s: user-content field %s of %v is not flagged", what, f.name, rec["id"])
		}
		if !present || v == nil {
			continue
		}
		switch f.expose {
		case "alias":
			s, _ := v.(string)
			if !strings.HasPrefix(s, expose.AliasPrefix) {
				t.Fatalf("%s: alias field %s shows %v", what, f.name, v)
			}
		case "placeholder":
			m, _ := v.(map[string]any)
			s, _ := m["$placeholder"].(string)
			if len(m) != 1 || !strings.HasPrefix(s, expose.PlaceholderPrefix) {
				t.Fatalf("%s: placeholder field %s shows %v", what, f.name, v)
			}
			w.tokens[s] = f.name
		case "mask":
			s, _ := v.(string)
			if !strings.Contains(s, "•") && !strings.Contains(s, "***@") {
				t.Fatalf("%s: masked field %s shows %v", what, f.name, v)
			}
		}
	}
	for _, r := range asList(rec["redacted"]) {
		if !oneOf(r, names...) {
			t.Fatalf("%s: redacted names %v, not a field", what, r)
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestCanaryProperty is issue 8's property: over random manifests and
// states, no canary planted in an undeclared path, in a masked, aliased or
// placeholder value, or in a value read only by conditions, session scope
// or redescribeOn, appears in any response of any operation — in any
// encoding — while every total stays exact and every response within its
// bounds.
func TestCanaryProperty(t *testing.T) {
	worlds := 150
	if testing.Short() {
		worlds = 50
	}
	describes, afters, changedSeen, prepared := 0, 0, 0, 0
	before := responsesChecked.Load()
	for seed := uint64(1); seed <= uint64(worlds); seed++ {
		w := newWorld(t, seed)
		d := &driver{t: t, w: w, s: session.New()}
		what := func(op string) string { return fmt.Sprintf("seed %d: %s", seed, op) }
		r := d.call(what("load"), map[string]any{"op": "load", "manifest": w.manifest, "key": "canary-session-key-0001"})
		if r["loaded"] != true {
			t.Fatalf("%s: load failed: %v", what("load"), r)
		}
		// The bridge's view: reads must not name an undeclared place.
		checkReads(t, what("reads"), r["reads"], w)
		d.call(what("describe before observe"), map[string]any{"op": "describe"})
		checkPruned(t, what("prune"), w)
		r = d.call(what("observe"), map[string]any{"op": "observe", "state": w.state})
		if num(t, r["recordsTotal"]) != w.total {
			t.Fatalf("%s: observe recordsTotal %v, want %d", what("observe"), r["recordsTotal"], w.total)
		}
		snap := fmt.Sprint(r["snapshot"])
		// Random windows and selections.
		for i := 0; i < 6; i++ {
			off := w.rng.IntN(len(w.ids) + 3)
			lim := 1 + w.rng.IntN(w.maxLimit)
			req := map[string]any{"op": "describe", "offset": off, "limit": lim}
			if i == 0 {
				req = map[string]any{"op": "describe"}
				off, lim = 0, w.manifest["limits"].(map[string]any)["defaultLimit"].(int)
			}
			d.checkDescribe(what("describe window"), d.call(what("describe window"), req), off, lim, nil)
			describes++
		}
		if len(w.ids) > 0 {
			var sel []string
			for i, n := 0, 1+w.rng.IntN(5); i < n; i++ {
				sel = append(sel, w.ids[w.rng.IntN(len(w.ids))])
			}
			d.checkDescribe(what("describe selection"), d.call(what("describe selection"), map[string]any{"op": "describe", "record": sel}), 0, 0, sel)
			describes++
		}
		// Requests that fail must not quote anything either.
		for _, bad := range []map[string]any{
			{"op": "describe", "record": []any{"R-0-0", "no-such-id", "bad\u202eid"}},
			{"op": "describe", "record": []any{"R-0-0"}, "offset": 1},
			{"op": "describe", "limit": w.maxLimit + 1},
			{"op": "describe", "offset": -1},
			{"op": "observe", "state": []any{1, 2}},
			{"op": "observe", "state": w.state, "patch": []any{}},
			{"op": "load", "key": "canary-session-key-0001", "manifest": map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": ""}}}},
		} {
			r := d.call(what("bad request"), bad)
			if r["error"] == nil {
				t.Fatalf("%s: %v did not fail", what("bad request"), bad)
			}
		}
		// Patches: a changed declared value, undeclared additions, a
		// failing test operation carrying a canary.
		if len(w.colls) > 0 {
			c := w.colls[0]
			patchOps := []any{
				map[string]any{"op": "add", "path": "/undeclared-" + w.cs.text(), "value": w.cs.text()},
				map[string]any{"op": "add", "path": "/session/token", "value": w.cs.text()},
			}
			if items, _ := resolve(w.state, c.from).([]any); len(items) > 0 {
				patchOps = append(patchOps,
					map[string]any{"op": "add", "path": c.from + "/0/extra", "value": w.cs.text()},
					map[string]any{"op": "replace", "path": c.from + "/0" + c.fields[0].from, "value": "patched"})
				if c.fields[0].expose != "plain" {
					patchOps[len(patchOps)-1].(map[string]any)["value"] = w.cs.text()
				}
			}
			d.call(what("observe patch"), map[string]any{"op": "observe", "patch": patchOps})
			d.call(what("observe failing patch"), map[string]any{"op": "observe", "patch": []any{
				map[string]any{"op": "test", "path": "/session/role", "value": w.cs.text()}}})
			d.call(what("observe patch on undeclared"), map[string]any{"op": "observe", "patch": []any{
				map[string]any{"op": "replace", "path": "/secrets/" + w.cs.text(), "value": 1}}})
			r := d.call(what("describe after patch"), map[string]any{"op": "describe"})
			if r["error"] == nil {
				ctx := r["context"].(map[string]any)
				if num(t, ctx["recordsTotal"]) != w.total {
					t.Fatalf("%s: recordsTotal changed by a patch of values", what("describe after patch"))
				}
			}
		}
		// Execution: prepare with tokens the agent saw and with made-up
		// ones, then after.
		names := make([]string, 0, len(w.caps))
		for name := range w.caps {
			names = append(names, name)
		}
		sort.Strings(names)
		toks := make([]string, 0, len(w.tokens))
		for tok := range w.tokens {
			toks = append(toks, tok)
		}
		sort.Strings(toks)
		for _, name := range names {
			info := w.caps[name]
			req := map[string]any{"op": "prepare", "capability": name, "snapshot": snap, "input": map[string]any{"note": "hi"}}
			if info.scope == "record" && len(w.ids) > 0 {
				req["record"] = w.ids[0]
				if len(w.held) > 0 {
					req["record"] = w.held[w.rng.IntN(len(w.held))]
				}
			}
			if len(toks) > 0 {
				req["input"] = map[string]any{"ref": map[string]any{"$placeholder": toks[w.rng.IntN(len(toks))]}}
			}
			if d.checkPrepare(what("prepare "+name), req) {
				prepared++
			}
			req["input"] = map[string]any{"ref": map[string]any{"$placeholder": "ph_madeup" + w.cs.text()}}
			if d.checkPrepare(what("prepare made-up token "+name), req) {
				t.Fatalf("%s: a made-up placeholder token resolved", what("prepare"))
			}
		}
		if a := d.call(what("after"), map[string]any{"op": "after", "since": snap}); a["error"] != nil {
			t.Fatalf("%s: after the first snapshot: %v", what("after"), a["error"])
		} else {
			afters++
			changedSeen += len(asList(a["records"].(map[string]any)["changed"]))
		}
		d.call(what("after unknown"), map[string]any{"op": "after", "since": "s999"})
		// Audit: counts and names only.
		a := d.call(what("audit"), map[string]any{"op": "audit"})
		if len(asList(a["events"])) == 0 {
			t.Fatalf("%s: no audit events", what("audit"))
		}
	}
	if afters != worlds || changedSeen == 0 {
		t.Fatalf("after answered %d of %d worlds with %d changed records: the property did not reach after", afters, worlds, changedSeen)
	}
	fmt.Printf("canary property: %d after observations (%d changed records), %d successful prepares\n", afters, changedSeen, prepared)
	fmt.Printf("canary property: %d random worlds, %d responses (%d describes checked in full), each scanned for every canary raw, JSON-escaped, URL-encoded, hex, base64 and base64url at every alignment, and for its 12-character prefix\n",
		worlds, responsesChecked.Load()-before, describes)
}

// checkPrepare runs a prepare. Its resolved input goes to the app's
// handler, never to the agent, so resolved placeholder values are allowed
// there and only there; everything else in the answer is scanned.
func (d *driver) checkPrepare(what string, req map[string]any) bool {
	t := d.t
	t.Helper()
	out := d.s.Call(mustJSON(req))
	r := decode(t, out)
	ok := r["ok"] == true
	if ok {
		// These worlds declare no token slots: a placeholder must never
		// resolve (security_tokens_test.go covers slots).
		if in, _ := req["input"].(map[string]any); in != nil {
			if ref, _ := in["ref"].(map[string]any); ref != nil {
				t.Fatalf("%s: a placeholder outside a token slot was accepted: %s", what, out)
			}
		}
		delete(r, "input")
		out = mustJSON(r)
	}
	checkResponse(t, what, out, d.w.cs, 0)
	return ok
}

// checkPruned: what the module keeps of a state (the declared slice that
// the bridge sends) holds none of the canaries of undeclared places.
func checkPruned(t testing.TB, what string, w *world) {
	t.Helper()
	plan, merr := manifest.Parse(mustJSON(w.manifest))
	if merr != nil {
		t.Fatalf("%s: %v", what, merr)
	}
	st, err := jsonval.Parse(mustJSON(w.state))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	kept := jsonval.Marshal(prune.FromReads(plan.Reads).State(st))
	for _, c := range w.pruned {
		j, _ := json.Marshal(c)
		if bytes.Contains(kept, j[1:len(j)-1]) {
			t.Fatalf("%s: undeclared canary %q survives pruning", what, c)
		}
	}
	if len(w.pruned) < 10 {
		t.Fatalf("%s: only %d undeclared canaries", what, len(w.pruned))
	}
}

// checkReads: every path the bridge may read is one the manifest declares.
func checkReads(t testing.TB, what string, reads any, w *world) {
	t.Helper()
	b := mustJSON(reads)
	if leak := w.cs.find(b); leak != "" {
		t.Fatalf("%s: %s", what, leak)
	}
	for _, p := range asList(reads.(map[string]any)["paths"]) {
		s := fmt.Sprint(p)
		if strings.Contains(s, "secrets") || strings.Contains(s, "token") || strings.Contains(s, "undeclared") {
			t.Fatalf("%s: reads names an undeclared path %s", what, s)
		}
	}
}

// ---------------------------------------------------------------------------
// Credential corpus in every position

type secretEntry struct {
	Kind, Provider, Value string
}

func secretCorpus(t testing.TB) []secretEntry {
	f, err := os.Open("../../testdata/credentials/secrets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []secretEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e secretEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if len(out) < 50 {
		t.Fatalf("credential corpus has %d entries", len(out))
	}
	return out
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

// TestCredentialCorpusEverywhere puts every secret of the corpus in every
// position at once and checks that none reaches the output: record fields
// are "[redacted]" and listed in redacted, feedback is flagged, a secret id
// is not referenceable, and errors about secrets never quote them.
func TestCredentialCorpusEverywhere(t *testing.T) {
	secrets := secretCorpus(t)
	cs := secretForms(secrets)
	s := session.New()
	check := func(what string, req any, max int) map[string]any {
		t.Helper()
		out := s.Call(mustJSON(req))
		checkResponse(t, what, out, cs, max)
		return decode(t, out)
	}
	if r := check("load", map[string]any{"op": "load", "manifest": positionsManifest, "key": "credential-test-key-01"}, 0); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	for i, e := range secrets {
		what := fmt.Sprintf("%s (%s)", e.Kind, e.Provider)
		state := positionsState(e.Value)
		r := check(what+": observe", map[string]any{"op": "observe", "state": state}, 0)
		if num(t, r["recordsTotal"]) != 3 || num(t, r["skipped"]) != 1 {
			t.Fatalf("%s: observe %v: want 3 records, the secret id skipped", what, r)
		}
		r = check(what+": describe", map[string]any{"op": "describe"}, 1<<20)
		ctx := r["context"].(map[string]any)
		if ids := ctx["recordIds"].([]any); len(ids) != 2 || ids[0] != "SO-1" || ids[1] != "SO-2" {
			t.Fatalf("%s: recordIds %v", what, ids)
		}
		rec := ctx["records"].([]any)[0].(map[string]any)
		fields := rec["fields"].(map[string]any)
		for _, f := range []string{"name", "note", "meta"} {
			if fields[f] != expose.Redacted {
				t.Fatalf("%s: field %s = %v, want %q", what, f, fields[f], expose.Redacted)
			}
			if !oneOf(f, toStrings(asList(rec["redacted"]))...) {
				t.Fatalf("%s: field %s not listed in redacted %v", what, f, rec["redacted"])
			}
		}
		if rec2 := ctx["records"].([]any)[1].(map[string]any); rec2["fields"].(map[string]any)["meta"] != expose.Redacted {
			t.Fatalf("%s: a secret as an object key was not redacted: %v", what, rec2)
		}
		fb := ctx["feedback"].([]any)[0].(map[string]any)
		if fb["text"] != expose.Redacted || fb["redacted"] != true {
			t.Fatalf("%s: feedback %v", what, fb)
		}
		if i == len(secrets)-1 {
			a := check("audit", map[string]any{"op": "audit"}, 0)
			if len(asList(a["events"])) == 0 {
				t.Fatal("no audit events")
			}
		}
	}
	fmt.Printf("credential corpus: %d secrets x 9 positions (field, user field, composite value, object key, id, state, feedback, page title, page param): none in any output\n", len(secrets))
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

// secretForms makes a canary set of the corpus: each secret and its
// distinctive tail (so a cut prefix does not pass for redaction).
func secretForms(secrets []secretEntry) *canaries {
	cs := newCanaries(rand.New(rand.NewPCG(1, 2)))
	for _, e := range secrets {
		cs.forms[e.Value] = e.Value
		cs.heads[e.Value[:4]] = append(cs.heads[e.Value[:4]], e.Value)
		// The distinctive tail of the secret (its last 16 bytes) must not
		// survive either, as it would if only a prefix were cut.
		if len(e.Value) >= 24 {
			tail := strings.TrimSpace(e.Value[len(e.Value)-16:])
			if len(tail) >= 8 && !strings.Contains(tail, "-----") && !strings.Contains(tail, "GMT") && !strings.Contains(tail, "Secure") {
				cs.forms[tail] = e.Value
				cs.heads[tail[:4]] = append(cs.heads[tail[:4]], tail)
			}
		}
	}
	return cs
}

// TestErrorsNeverQuoteSecrets sends every secret of the corpus where a
// request can carry text (unknown parameters, ids, op names, keys, patch
// pointers and values, prepare input, after snapshots): no error may
// quote it, in its message or its param.
func TestErrorsNeverQuoteSecrets(t *testing.T) {
	secrets := secretCorpus(t)
	cs := secretForms(secrets)
	positions := []struct {
		name string
		req  func(secret string) map[string]any
	}{
		{"record selection", func(x string) map[string]any { return map[string]any{"op": "describe", "record": []any{x}} }},
		{"unknown describe parameter", func(x string) map[string]any { return map[string]any{"op": "describe", x: 1} }},
		{"op name", func(x string) map[string]any { return map[string]any{"op": x} }},
		{"unknown load parameter", func(x string) map[string]any {
			return map[string]any{"op": "load", "manifest": positionsManifest, x: true}
		}},
		{"unknown observe parameter", func(x string) map[string]any {
			return map[string]any{"op": "observe", "state": positionsState("x"), x: true}
		}},
		{"session key", func(x string) map[string]any {
			return map[string]any{"op": "load", "manifest": map[string]any{"pinhole": 2}, "key": x}
		}},
		{"patch pointer", func(x string) map[string]any {
			return map[string]any{"op": "observe", "patch": []any{map[string]any{"op": "remove", "path": "/orders/0/" + x}}}
		}},
		{"patch test value", func(x string) map[string]any {
			return map[string]any{"op": "observe", "patch": []any{map[string]any{"op": "test", "path": "/orders/0/name", "value": x + "x"}}}
		}},
		{"prepare input", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": "SO-9", "input": map[string]any{"x": x}}
		}},
		{"prepare input key", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": "SO-1", "input": map[string]any{x: 1}}
		}},
		{"prepare placeholder token", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": "SO-1", "input": map[string]any{"p": map[string]any{"$placeholder": x}}}
		}},
		{"prepare capability", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": x, "record": "SO-1", "input": map[string]any{}}
		}},
		{"prepare record", func(x string) map[string]any {
			return map[string]any{"op": "prepare", "capability": "order.ship", "record": x, "input": map[string]any{}}
		}},
		{"after snapshot", func(x string) map[string]any { return map[string]any{"op": "after", "since": x} }},
		{"manifest region id", func(x string) map[string]any {
			return map[string]any{"op": "load", "key": "credential-test-key-01", "manifest": map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "a", "parent": x}}}}
		}},
	}
	for _, p := range positions {
		t.Run(p.name, func(t *testing.T) {
			s := session.New()
			s.Call(mustJSON(map[string]any{"op": "load", "manifest": positionsManifest, "key": "credential-test-key-01"}))
			s.Call(mustJSON(map[string]any{"op": "observe", "state": positionsState("plain")}))
			for _, e := range secrets {
				out := s.Call(mustJSON(p.req(e.Value)))
				checkResponse(t, e.Kind+" ("+e.Provider+")", out, cs, 0)
			}
		})
	}
}

func toStrings(l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// ---------------------------------------------------------------------------
// Prompt injection

// injectionManifest is positionsManifest with app-authored capabilities
// whose text the response must repeat exactly.
func injectionManifest() map[string]any {
	m := map[string]any{}
	for k, v := range positionsManifest {
		m[k] = v
	}
	m["limits"] = map[string]any{"maxFieldChars": 512, "maxResponseBytes": 1 << 20}
	m["capabilities"] = []any{
		map[string]any{"name": "order.ship", "description": "Ship one order", "scope": "record", "region": "orders",
			"unavailable": []any{map[string]any{"when": map[string]any{"field": "/name", "ne": "ok"}, "reason": "Only orders named ok ship"}}},
		map[string]any{"name": "orders.export", "description": "Export the list as CSV", "scope": "page", "region": "orders",
			"unavailable": []any{map[string]any{"when": map[string]any{"path": "/ui/filter", "exists": true}, "reason": "Clear the filter first"}}},
	}
	return m
}

// TestInjectionCorpus puts every entry of testdata/injection in record
// fields, user-content fields, ids, state, feedback, the page title and a
// page param. The response's structure, capability names, descriptions and
// reasons stay exactly the manifest's; injected text never becomes a key;
// user content is flagged; invisible characters are stripped, control
// characters escaped; ids with control or invisible characters are not
// referenceable; long text is cut and says so.
func TestInjectionCorpus(t *testing.T) {
	inj := injectionCorpus(t)
	s := session.New()
	if r := decode(t, s.Call(mustJSON(map[string]any{"op": "load", "manifest": injectionManifest(), "key": "injection-key-000001"}))); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	wantCaps := `[{"name":"order.ship","description":"Ship one order","scope":"record","region":"orders","input":{"type":"object","properties":{},"additionalProperties":false}},{"name":"orders.export","description":"Export the list as CSV","scope":"page","region":"orders","input":{"type":"object","properties":{},"additionalProperties":false}}]`
	for i, text := range inj {
		what := fmt.Sprintf("injection %d (%.40q)", i, text)
		state := map[string]any{
			"router": map[string]any{"path": "/orders", "title": text, "query": map[string]any{"q": text, text: "x"}},
			"ui":     map[string]any{"filter": text, "toasts": []any{map[string]any{"message": text}}},
			"orders": []any{
				map[string]any{"id": "SO-1", "name": text, "note": text, "meta": map[string]any{"k": text}, "email": text},
				map[string]any{"id": text, "name": "ok"},
				map[string]any{"id": "SO-2" + text, "name": "ok"},
			},
		}
		out := s.Call(mustJSON(map[string]any{"op": "observe", "state": state}))
		checkResponse(t, what+": observe", out, nil, 0)
		out = s.Call([]byte(`{"op":"describe"}`))
		checkResponse(t, what+": describe", out, nil, 1<<20)
		r := decode(t, out)
		var raw struct{ Capabilities json.RawMessage }
		if err := json.Unmarshal(out, &raw); err != nil {
			t.Fatal(err)
		}
		if caps := raw.Capabilities; string(caps) != wantCaps {
			t.Fatalf("%s: capabilities are not the manifest's:\n%s", what, caps)
		}
		ctx := r["context"].(map[string]any)
		checkKeys(t, what, r, "snapshot", "limits", "capabilities", "context")
		checkKeys(t, what+" context", ctx, "page", "regions", "records", "recordIds", "recordIdsTotal", "recordWindow",
			"recordsTotal", "duplicatesTotal", "cutTotal", "state", "stateTruncated", "stateCut", "feedback", "feedbackTotal", "unavailable", "unavailableTotal")
		checkKeys(t, what+" state", ctx["state"].(map[string]any), "filter")
		pg := ctx["page"].(map[string]any)
		checkKeys(t, what+" page", pg, "route", "title", "params", "truncated")
		checkKeys(t, what+" params", pg["params"].(map[string]any), "q")
		for _, u := range asList(ctx["unavailable"]) {
			um := u.(map[string]any)
			checkKeys(t, what+" unavailable", um, "capability", "record", "reason")
			if !oneOf(um["reason"], "Only orders named ok ship", "Clear the filter first") {
				t.Fatalf("%s: reason %v is not the manifest's", what, um["reason"])
			}
		}
		recs := ctx["records"].([]any)
		ids := toStrings(asList(ctx["recordIds"]))
		for _, id := range ids {
			if strings.ContainsAny(id, "\x00\x07\x1b\x7f\n\r\t") || strings.IndexFunc(id, isInvisible) >= 0 {
				t.Fatalf("%s: id %q with control or invisible characters is referenceable", what, id)
			}
		}
		rec := recs[0].(map[string]any)
		checkKeys(t, what+" record", rec, "id", "region", "fields", "truncated", "redacted", "cut", "userContent")
		checkKeys(t, what+" fields", rec["fields"].(map[string]any), "name", "note", "meta", "email")
		if uc := toStrings(asList(rec["userContent"])); len(uc) != 1 || uc[0] != "note" {
			t.Fatalf("%s: userContent %v, want [note]", what, uc)
		}
		if fb := ctx["feedback"].([]any); len(fb) == 1 {
			f := fb[0].(map[string]any)
			if f["source"] != "app" || f["level"] != "info" {
				t.Fatalf("%s: feedback provenance %v", what, f)
			}
		}
		if n := len([]rune(text)); n > 512 {
			cut, _ := rec["truncated"].(map[string]any)
			if cut == nil || num(t, cut["name"]) != n || num(t, cut["note"]) != n {
				t.Fatalf("%s: a %d-character field is not reported as cut: %v", what, n, cut)
			}
			if len([]rune(fmt.Sprint(rec["fields"].(map[string]any)["note"]))) > 512 {
				t.Fatalf("%s: a field exceeds maxFieldChars", what)
			}
		}
	}
}

// TestInvisibleAndControlCharacters pins the handling the project decides for
// each class of character, in record fields, masked fields, state, feedback
// and page text: invisible formatting characters, DEL and the C1 controls
// are stripped; C0 control characters are escaped as \u00XX (never raw);
// line separators are escaped.
func TestInvisibleAndControlCharacters(t *testing.T) {
	s := session.New()
	s.Call(mustJSON(map[string]any{"op": "load", "manifest": positionsManifest, "key": "injection-key-000001"}))
	cases := []struct {
		name, in string
		want     []string // escaped text the output must hold
		idOK     bool     // an id holding the characters stays referenceable
	}{
		{"bidi override", "a\u202eb\u202cc", []string{`"abc"`}, false},
		{"bidi isolates", "a\u2066b\u2067c\u2068d\u2069", []string{`"abcd"`}, false},
		{"zero-width", "a\u200bb\u200cc\u200dd\u2060e\ufefff", []string{`"abcdef"`}, false},
		{"marks", "a\u200eb\u200fc", []string{`"abc"`}, false},
		{"arabic letter mark", "a\u061cb", []string{`"ab"`}, false},
		{"tag characters", "a\U000E0049\U000E0067b", []string{`"ab"`}, false},
		{"C0 controls", "a\x00b\x07c\x1bd", []string{`"a\u0000b\u0007c\u001bd"`}, false},
		{"newlines and tabs", "a\nb\rc\td", []string{`"a\nb\rc\td"`}, false},
		{"DEL and C1 controls", "a\x7fb\u0085c\u009bd", []string{`"abcd"`}, false},
		{"mongolian vowel separator and deprecated format", "a\u180eb\u206ac\u206fd", []string{`"abcd"`}, false},
		{"line separators", "a\u2028b\u2029c", []string{`"a\u2028b\u2029c"`}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := map[string]any{
				"router": map[string]any{"path": "/x", "title": c.in, "query": map[string]any{"q": c.in}},
				"ui":     map[string]any{"filter": c.in, "toasts": []any{map[string]any{"message": c.in}}},
				"orders": []any{map[string]any{"id": "SO-1", "name": c.in, "note": c.in, "email": strings.TrimPrefix(c.in, "a") + "@example.com"},
					map[string]any{"id": "SO-" + c.in, "name": "id with the characters"}},
			}
			s.Call(mustJSON(map[string]any{"op": "observe", "state": state}))
			out := s.Call([]byte(`{"op":"describe"}`))
			checkResponse(t, c.name, out, nil, 0)
			for _, w := range c.want {
				// Title, param, state, feedback, two fields: six places.
				if n := strings.Count(string(out), w); n < 6 {
					t.Fatalf("output holds %s %d times, want 6 (title, param, state, feedback, name, note): %s", w, n, out)
				}
			}
			if r := decode(t, out); !c.idOK && num(t, r["context"].(map[string]any)["recordIdsTotal"]) != 1 {
				t.Fatalf("an id with invisible or control characters is referenceable: %s", out)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Bounds under attack

// peakHeap samples the live heap while fn runs and returns the highest
// figure seen, in bytes.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(done)
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	metrics.Read(sample)
	if v := sample[0].Value.Uint64(); v > peak.Load() {
		peak.Store(v)
	}
	return peak.Load()
}

// boundsManifest declares a plain, a user and a masked field, state,
// feedback, a page and one record-scope capability that is unavailable for
// every record.
const boundsManifest = `{"pinhole":1,
 "page":{"route":"/r/path","title":"/r/title"},
 "regions":[{"id":"list","description":"The list"}],
 "collections":[{"region":"list","from":"/items","id":"/id","fields":{
   "name":{"from":"/name"},"note":{"from":"/note","content":"user"},"email":{"from":"/email","expose":"mask"}}}],
 "state":{"filter":"/ui/filter"},
 "feedback":{"from":"/ui/toasts","text":"/message"},
 "capabilities":[{"name":"item.open","description":"Open one item","scope":"record","region":"list",
   "unavailable":[{"when":{"field":"/name","exists":true},"reason":"Every item is locked"}]}]}`

// describeChecked runs a describe and checks the bounds every answer keeps.
func describeChecked(t testing.TB, s *session.Session, req string, maxBytes int) map[string]any {
	t.Helper()
	out := s.Call([]byte(req))
	checkResponse(t, req, out, nil, maxBytes)
	r := decode(t, out)
	if r["error"] != nil {
		t.Fatalf("%s: %v", req, r["error"])
	}
	return r
}

func TestBoundsMillionRecords(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	var req bytes.Buffer
	req.Grow(n * 90)
	req.WriteString(`{"op":"observe","state":{"r":{"path":"/list","title":"List"},"ui":{"filter":"all","toasts":[]},"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			req.WriteByte(',')
		}
		n := strconv.AppendInt(nil, int64(i), 10)
		req.WriteString(`{"id":"R`)
		req.Write(n)
		req.WriteString(`","name":"Item `)
		req.Write(n)
		req.WriteString(`","email":"u`)
		req.Write(n)
		req.WriteString(`@example.com","secret":"zq`)
		req.Write(n)
		req.WriteString(`"}`)
	}
	req.WriteString(`]}}`)
	s := session.New()
	if r := decode(t, s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":`+boundsManifest+`}`))); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	start := time.Now()
	var obs map[string]any
	peak := peakHeap(func() {
		obs = decode(t, s.Call(req.Bytes()))
		for _, q := range []string{`{"op":"describe"}`, `{"op":"describe","offset":` + strconv.Itoa(n-3) + `,"limit":50}`,
			`{"op":"describe","limit":50}`, `{"op":"describe","record":["R` + strconv.Itoa(n-1) + `","R0"]}`} {
			r := describeChecked(t, s, q, 65536)
			ctx := r["context"].(map[string]any)
			if num(t, ctx["recordsTotal"]) != n || num(t, ctx["recordIdsTotal"]) != n {
				t.Fatalf("%s: totals %v/%v, want %d", q, ctx["recordsTotal"], ctx["recordIdsTotal"], n)
			}
			if len(asList(ctx["recordIds"])) != 1000 {
				t.Fatalf("%s: %d recordIds, want maxRecordIds 1000", q, len(asList(ctx["recordIds"])))
			}
			if num(t, ctx["unavailableTotal"]) != len(asList(ctx["records"])) {
				t.Fatalf("%s: unavailableTotal %v for %d records", q, ctx["unavailableTotal"], len(asList(ctx["records"])))
			}
		}
	})
	elapsed := time.Since(start)
	if num(t, obs["recordsTotal"]) != n {
		t.Fatalf("observe: %v", obs)
	}
	fmt.Printf("bounds: %d records (%d MB observe request): observe + 4 describes in %v, peak live heap %d MB (%.1f x the request)\n",
		n, req.Len()>>20, elapsed.Round(time.Millisecond), peak>>20, float64(peak)/float64(req.Len()))
	// Memory stays proportional to the declared state: the parsed tree and
	// the snapshot, never a copy per describe.
	if limit := uint64(req.Len()) * 40; peak > limit {
		t.Fatalf("peak live heap %d MB exceeds 40x the request (%d MB)", peak>>20, limit>>20)
	}
}

func TestBoundsHugeValues(t *testing.T) {
	size := 10 << 20
	if testing.Short() {
		size = 2 << 20
	}
	big := strings.Repeat("A long line of user text é ", size/28)
	runes := len([]rune(big))
	toasts := make([]any, 100_000)
	for i := range toasts {
		toasts[i] = map[string]any{"message": fmt.Sprintf("Notice %d", i)}
	}
	toasts[0] = map[string]any{"message": big}
	items := []any{
		map[string]any{"id": "R1", "name": big, "note": big, "email": big + "@example.com"},
		map[string]any{"id": big, "name": "an item whose id is 10 MB"},
	}
	state := map[string]any{"r": map[string]any{"path": big, "title": big},
		"ui": map[string]any{"filter": map[string]any{"deep": big}, "toasts": toasts}, "items": items}
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":` + boundsManifest + `}`))
	req := mustJSON(map[string]any{"op": "observe", "state": state})
	var r map[string]any
	peak := peakHeap(func() {
		obs := decode(t, s.Call(req))
		if num(t, obs["recordsTotal"]) != 2 || num(t, obs["skipped"]) != 1 {
			t.Fatalf("observe: %v", obs)
		}
		r = describeChecked(t, s, `{"op":"describe"}`, 65536)
	})
	ctx := r["context"].(map[string]any)
	if num(t, ctx["feedbackTotal"]) != 100_000 || len(asList(ctx["feedback"])) != 20 {
		t.Fatalf("feedback: total %v, %d items", ctx["feedbackTotal"], len(asList(ctx["feedback"])))
	}
	if fb := ctx["feedback"].([]any)[0].(map[string]any); num(t, fb["truncated"]) != runes {
		t.Fatalf("a 10 MB feedback text is not reported as cut: %v", fb["truncated"])
	}
	rec := ctx["records"].([]any)[0].(map[string]any)
	cut := rec["truncated"].(map[string]any)
	if num(t, cut["name"]) != runes || num(t, cut["note"]) != runes {
		t.Fatalf("truncated = %v, want %d for name and note", cut, runes)
	}
	for _, f := range []string{"name", "note"} {
		if n := len([]rune(rec["fields"].(map[string]any)[f].(string))); n != 512 {
			t.Fatalf("field %s has %d characters, want maxFieldChars 512", f, n)
		}
	}
	if st := ctx["state"].(map[string]any); st["filter"] != nil {
		t.Fatalf("a 10 MB composite state value should be dropped (null) and reported: %v", st["filter"])
	}
	if len(asList(ctx["recordIds"])) != 1 {
		t.Fatalf("a 10 MB id is referenceable")
	}
	fmt.Printf("bounds: %d MB fields, title, state and feedback text, 100000 feedback items: cut to the limits, totals exact, peak live heap %d MB\n",
		size>>20, peak>>20)
}

func TestBoundsDeepNesting(t *testing.T) {
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":` + boundsManifest + `}`))
	// Nesting the parser accepts, inside a declared value.
	deep := strings.Repeat(`{"a":`, 500) + `1` + strings.Repeat(`}`, 500)
	out := s.Call([]byte(`{"op":"observe","state":{"ui":{"filter":` + deep + `},"items":[{"id":"R1","name":` + deep + `}]}}`))
	checkResponse(t, "observe deep", out, nil, 0)
	if r := decode(t, out); r["error"] != nil {
		t.Fatalf("observe of 500 levels: %v", r)
	}
	describeChecked(t, s, `{"op":"describe"}`, 65536)
	// Nesting far beyond: an error, never a stack overflow.
	for _, d := range []int{600, 100_000, 1_000_000} {
		deep := strings.Repeat(`[`, d) + strings.Repeat(`]`, d)
		out := s.Call([]byte(`{"op":"observe","state":{"ui":{"filter":` + deep + `}}}`))
		checkResponse(t, "observe very deep", out, nil, 0)
		if r := decode(t, out); r["error"] == nil {
			t.Fatalf("nesting %d accepted", d)
		}
	}
	// A manifest condition nested 200 deep.
	cond := strings.Repeat(`{"not":`, 200) + `{"path":"/ui/filter","exists":true}` + strings.Repeat(`}`, 200)
	out = s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":{"pinhole":1,"regions":[{"id":"a","activeWhen":` + cond + `}]}}`))
	checkResponse(t, "deep condition", out, nil, 0)
	if !bytes.HasPrefix(out, []byte(`{"loaded":true`)) {
		t.Fatalf("a condition nested 200 deep: %.300s", out)
	}
	// Patches that would build nesting far past the parser's limit, each
	// adding a 400-deep value at the bottom of the one before: applied or
	// refused with invalid_state, and the module keeps answering.
	s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":` + boundsManifest + `}`))
	s.Call([]byte(`{"op":"observe","state":{"ui":{"filter":1}}}`))
	const depth = 400
	value := strings.Repeat(`[`, depth) + `{"x":1}` + strings.Repeat(`]`, depth)
	path := "/ui/filter"
	for i := 0; i < 5; i++ {
		out := s.Call([]byte(`{"op":"observe","patch":[{"op":"add","path":"` + path + `","value":` + value + `}]}`))
		checkResponse(t, "deep patch", out, nil, 0)
		if r := decode(t, out); r["error"] != nil && r["error"].(map[string]any)["code"] != "invalid_state" {
			t.Fatalf("patch %d: %v", i, r["error"])
		}
		path += strings.Repeat("/0", depth) + "/x"
	}
	r := describeChecked(t, s, `{"op":"describe"}`, 65536)
	if st := r["context"].(map[string]any)["state"].(map[string]any); st["filter"] != nil {
		t.Fatalf("a 400-deep state value is shown: it should be dropped as too long")
	}
	checkResponse(t, "after", s.Call([]byte(`{"op":"after","since":"s1"}`)), nil, 65536)
}

func TestBoundsManyRegionsAndCapabilities(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 2_000
	}
	var m bytes.Buffer
	m.WriteString(`{"op":"load","key":"bounds-key-0000001","manifest":{"pinhole":1,"regions":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		// A chain: every region is the child of the one before.
		if i == 0 {
			m.WriteString(`{"id":"g0","description":"Region 0"}`)
		} else {
			fmt.Fprintf(&m, `{"id":"g%d","parent":"g%d","description":"Region %d","activeWhen":{"path":"/on","eq":true}}`, i, i-1, i)
		}
	}
	m.WriteString(`],"collections":[{"region":"g0","from":"/items","id":"/id","fields":{"name":{"from":"/name"}}}],"capabilities":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		fmt.Fprintf(&m, `{"name":"c%d.run","description":"Capability %d","scope":"record","region":"g%d","unavailable":[{"when":{"field":"/name","ne":"x"},"reason":"Not now %d"}]}`, i, i, i%7, i)
	}
	m.WriteString(`]}}`)
	s := session.New()
	start := time.Now()
	out := s.Call(m.Bytes())
	loadTime := time.Since(start)
	checkResponse(t, "load", out, nil, 0)
	if r := decode(t, out); r["loaded"] != true {
		t.Fatalf("load: %.300s", out)
	}
	var st bytes.Buffer
	st.WriteString(`{"op":"observe","state":{"on":true,"items":[`)
	for i := 0; i < 100; i++ {
		if i > 0 {
			st.WriteByte(',')
		}
		fmt.Fprintf(&st, `{"id":"R%d","name":"n"}`, i)
	}
	st.WriteString(`]}}`)
	start = time.Now()
	checkResponse(t, "observe", s.Call(st.Bytes()), nil, 0)
	// The capabilities alone exceed maxResponseBytes: the answer is an
	// error, never a longer response.
	out = s.Call([]byte(`{"op":"describe"}`))
	describeTime := time.Since(start)
	checkResponse(t, "describe", out, nil, 65536)
	if r := decode(t, out); r["error"] == nil || r["error"].(map[string]any)["code"] != "state_too_large" {
		t.Fatalf("describe with %d capabilities: want state_too_large, got %.300s", n, out)
	}
	fmt.Printf("bounds: %d regions (one parent chain) and %d capabilities: load %v, observe + describe %v\n",
		n, n, loadTime.Round(time.Millisecond), describeTime.Round(time.Millisecond))
	if loadTime > 15*time.Second {
		t.Fatalf("load of %d regions and capabilities took %v", n, loadTime)
	}
}

// TestBoundsManyUnavailable: 200 record-scope capabilities, each
// unavailable for every record of a 50-record window, is 10,000 entries;
// the answer keeps maxUnavailable of them and the exact total.
func TestBoundsManyUnavailable(t *testing.T) {
	var m bytes.Buffer
	m.WriteString(`{"op":"load","key":"bounds-key-0000001","manifest":{"pinhole":1,"limits":{"maxUnavailable":500,"maxResponseBytes":1048576},"regions":[{"id":"g"}],"collections":[{"region":"g","from":"/items","id":"/id","fields":{"name":{"from":"/name"}}}],"capabilities":[`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		fmt.Fprintf(&m, `{"name":"c%d","description":"C %d","scope":"record","region":"g","unavailable":[{"when":{"field":"/name","exists":true},"reason":"Locked %d"}]}`, i, i, i)
	}
	m.WriteString(`]}}`)
	s := session.New()
	if r := decode(t, s.Call(m.Bytes())); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	var st bytes.Buffer
	st.WriteString(`{"op":"observe","state":{"items":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			st.WriteByte(',')
		}
		fmt.Fprintf(&st, `{"id":"R%d","name":"n"}`, i)
	}
	st.WriteString(`]}}`)
	s.Call(st.Bytes())
	r := describeChecked(t, s, `{"op":"describe","limit":50}`, 1<<20)
	ctx := r["context"].(map[string]any)
	got := len(asList(ctx["records"]))
	if total := num(t, ctx["unavailableTotal"]); total != 200*got {
		t.Fatalf("unavailableTotal %d, want %d (200 x %d records)", total, 200*got, got)
	}
	if n := len(asList(ctx["unavailable"])); n > 500 {
		t.Fatalf("%d unavailable entries, maxUnavailable is 500", n)
	}
}

// TestProtectedValueDeclaredTwice: a value declared mask, alias or
// placeholder must not reach the agent through another declaration that
// covers it — a plain field of its parent object, the record id, declared
// state or the page. The module either rejects such a manifest at load or
// keeps the value protected; it never shows it.
func TestProtectedValueDeclaredTwice(t *testing.T) {
	secret := "zqProtectedValue0042"
	state := map[string]any{"ui": map[string]any{"card": secret},
		"orders": []any{map[string]any{"id": "SO-1", "customer": map[string]any{"card": secret, "name": "Lin"}, "ref": secret}}}
	field := func(from, mode string) map[string]any { return map[string]any{"from": from, "expose": mode} }
	cases := map[string]map[string]any{
		"plain parent field": {"card": field("/customer/card", "placeholder"), "customer": field("/customer", "plain")},
		"plain same path":    {"card": field("/customer/card", "mask"), "again": field("/customer/card", "plain")},
		"id is protected":    {"ref": field("/ref", "alias")},
	}
	for name, fields := range cases {
		for _, mode := range []string{"mask", "alias", "placeholder"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				for k, v := range fields {
					if f := v.(map[string]any); f["expose"] != "plain" {
						fields[k] = field(f["from"].(string), mode)
					}
				}
				id := "/id"
				if name == "id is protected" {
					id = "/ref"
				}
				m := map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "o"}},
					"collections": []any{map[string]any{"region": "o", "from": "/orders", "id": id, "fields": fields}}}
				cs := newCanaries(rand.New(rand.NewPCG(3, 3)))
				cs.register(secret)
				s := session.New()
				out := s.Call(mustJSON(map[string]any{"op": "load", "key": "overlap-test-key-001", "manifest": m}))
				checkResponse(t, "load", out, cs, 0)
				if bytes.Contains(out, []byte(`"error"`)) {
					if !bytes.Contains(out, []byte(`"invalid_manifest"`)) {
						t.Fatalf("load: %s", out)
					}
					return // rejected at load: fine
				}
				checkResponse(t, "observe", s.Call(mustJSON(map[string]any{"op": "observe", "state": state})), cs, 0)
				checkResponse(t, "describe", s.Call([]byte(`{"op":"describe"}`)), cs, 0)
			})
		}
	}
	// Absolute declarations that cover a protected record field.
	extras := map[string]map[string]any{
		"state covers the collection": {"state": map[string]any{"all": "/orders"}},
		"state names the item value":  {"state": map[string]any{"first": "/orders/0/customer/card"}},
		"page title is the value":     {"page": map[string]any{"title": "/orders/0/customer"}},
		"feedback reads the items":    {"feedback": map[string]any{"from": "/orders", "text": "/customer/card"}},
	}
	for name, extra := range extras {
		t.Run(name, func(t *testing.T) {
			m := map[string]any{"pinhole": 1, "regions": []any{map[string]any{"id": "o"}},
				"collections": []any{map[string]any{"region": "o", "from": "/orders", "id": "/id",
					"fields": map[string]any{"card": field("/customer/card", "placeholder")}}}}
			for k, v := range extra {
				m[k] = v
			}
			cs := newCanaries(rand.New(rand.NewPCG(3, 3)))
			cs.register(secret)
			s := session.New()
			out := s.Call(mustJSON(map[string]any{"op": "load", "key": "overlap-test-key-001", "manifest": m}))
			checkResponse(t, "load", out, cs, 0)
			if bytes.Contains(out, []byte(`"error"`)) {
				if !bytes.Contains(out, []byte(`"invalid_manifest"`)) {
					t.Fatalf("load: %s", out)
				}
				return // rejected at load: fine
			}
			checkResponse(t, "observe", s.Call(mustJSON(map[string]any{"op": "observe", "state": state})), cs, 0)
			checkResponse(t, "describe", s.Call([]byte(`{"op":"describe"}`)), cs, 0)
		})
	}
}

// TestScopeChangeForgetsTokens: when the session scope (tenant, account,
// user) changes, placeholders handed out before stop resolving, so an
// agent cannot carry a token of one tenant into another.
func TestScopeChangeForgetsTokens(t *testing.T) {
	m := `{"pinhole":1,"sessionScope":"/tenant","regions":[{"id":"a"}],
	 "collections":[{"region":"a","from":"/orders","id":"/id","fields":{"card":{"from":"/card","expose":"placeholder"}}}],
	 "capabilities":[{"name":"order.charge","description":"Charge","scope":"record","region":"a",
	   "input":{"type":"object","properties":{"card":{"x-pinhole-token":{"field":"card"}}}}}]}`
	state := func(tenant string) []byte {
		return []byte(`{"op":"observe","state":{"tenant":"` + tenant + `","orders":[{"id":"SO-1","card":"4111 1111 1111 1000"}]}}`)
	}
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"scope-test-key-0001","manifest":` + m + `}`))
	s.Call(state("acme"))
	desc := s.Call([]byte(`{"op":"describe"}`))
	i := bytes.Index(desc, []byte(`"ph_`))
	if i < 0 {
		t.Fatalf("no placeholder in %s", desc)
	}
	tok := string(desc[i+1 : i+1+bytes.IndexByte(desc[i+1:], '"')])
	prepare := []byte(`{"op":"prepare","capability":"order.charge","record":"SO-1","input":{"card":{"$placeholder":"` + tok + `"}}}`)
	if before := s.Call(prepare); !bytes.Contains(before, []byte(`"4111 1111 1111 1000"`)) {
		t.Fatalf("the placeholder does not resolve in its own scope: %s", before)
	}
	s.Call(state("other-tenant"))
	after := s.Call(prepare)
	checkResponse(t, "prepare after scope change", after, nil, 0)
	if bytes.Contains(after, []byte("4111 1111 1111 1000")) || !bytes.Contains(after, []byte(`"error"`)) {
		t.Fatalf("a placeholder of the old scope still resolves: %s", after)
	}
}

// TestNoExistenceOracle: an id that exists but is not referenceable now (in
// an inactive region) and an id that never existed get byte-identical
// answers, from describe and from prepare.
func TestNoExistenceOracle(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"a"},{"id":"hidden","activeWhen":{"path":"/on","eq":true}}],
	 "collections":[{"region":"a","from":"/a","id":"/id","fields":{"n":{"from":"/n"}}},
	                {"region":"hidden","from":"/h","id":"/id","fields":{"n":{"from":"/n"}}}],
	 "capabilities":[{"name":"x.run","description":"Run","scope":"record","region":"a"}]}`
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"oracle-test-key-001","manifest":` + m + `}`))
	s.Call([]byte(`{"op":"observe","state":{"on":false,"a":[{"id":"A1","n":1}],"h":[{"id":"H1","n":2}]}}`))
	for _, q := range []string{
		`{"op":"describe","record":["%s"]}`,
		`{"op":"prepare","capability":"x.run","record":"%s","input":{}}`,
	} {
		hidden := s.Call([]byte(fmt.Sprintf(q, "H1")))
		unknown := s.Call([]byte(fmt.Sprintf(q, "Z9")))
		if !bytes.Equal(hidden, unknown) || !bytes.Contains(hidden, []byte(`"error"`)) {
			t.Errorf("%s: inactive id answers %s, unknown id %s", q, hidden, unknown)
		}
	}
}

// TestScopeChangeUnlinksTokens: the same value under a new session scope
// (another tenant, account or user) gets new aliases and placeholders, so
// the agent cannot tell that two tenants share a value, and a token of the
// old scope does not come back to life once the new scope is described.
func TestScopeChangeUnlinksTokens(t *testing.T) {
	m := `{"pinhole":1,"sessionScope":"/tenant","regions":[{"id":"a"}],
	 "collections":[{"region":"a","from":"/orders","id":"/id","fields":{
	   "card":{"from":"/card","expose":"placeholder"},"phone":{"from":"/phone","expose":"alias"}}}]}`
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"scope-test-key-0001","manifest":` + m + `}`))
	tokens := func(tenant string) (string, string) {
		s.Call([]byte(`{"op":"observe","state":{"tenant":"` + tenant + `","orders":[{"id":"SO-1","card":"4111 1111 1111 1000","phone":"+44 20 7946 1000"}]}}`))
		var r struct {
			Context struct {
				Records []struct {
					Fields struct {
						Card struct {
							Placeholder string `json:"$placeholder"`
						}
						Phone string
					}
				}
			}
		}
		if err := json.Unmarshal(s.Call([]byte(`{"op":"describe"}`)), &r); err != nil || len(r.Context.Records) != 1 {
			t.Fatalf("describe: %v", err)
		}
		f := r.Context.Records[0].Fields
		return f.Card.Placeholder, f.Phone
	}
	ph1, al1 := tokens("acme")
	ph2, al2 := tokens("other-tenant")
	if ph1 == "" || al1 == "" {
		t.Fatal("no tokens")
	}
	if ph1 == ph2 || al1 == al2 {
		t.Fatalf("the same value has the same tokens under two session scopes (placeholder %s/%s, alias %s/%s): the agent can link tenants", ph1, ph2, al1, al2)
	}
}
