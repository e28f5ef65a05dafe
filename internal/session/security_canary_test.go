package session_test

// SECURITY.md §1 "Undeclared data never reaches the agent" (and the
// protected values of §2 in random worlds): the canary property over random
// manifests and states. A random world is a manifest, a state with
// canaries, and what a describe of it must say; a driver runs a session
// over it and checks every answer against the world.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/session"
)

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
