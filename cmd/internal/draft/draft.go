// Package draft proposes a least-exposure manifest from a sample of an
// application's store, for `pinhole init` and the Worker's /v1/init. It
// finds the collections (arrays of objects with an id-like key whose
// values are unique), proposes an exposure for each field from the lint
// detectors, one region per collection, and the page, state and feedback
// where their keys are recognisable. It never guesses capabilities. Every
// choice is explained beside it in a "$comment", which the manifest
// compiler accepts and ignores; explanations name keys and paths of the
// sample, never its values.
package draft

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/cmd/internal/lint"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/project"
	"github.com/pinholectx/pinhole/internal/wire"
)

// MaxSampleBytes bounds the sample a draft is made from: a sample needs a
// few records of each kind, not the whole store.
const MaxSampleBytes = 8 << 20

// DefaultSchema is the "$schema" of a draft: the JSON Schema the npm
// package ships, as a path from a manifest at the root of a project that
// installed it.
const DefaultSchema = "./node_modules/@pinholectx/pinhole/manifest.schema.json"

// Bounds of the work a draft does on one sample.
const (
	maxDepth       = 12  // object levels searched for collections, page and state
	maxItemDepth   = 4   // object levels inside a record searched for fields
	maxFields      = 100 // fields proposed per collection
	maxStateKeys   = 20  // state keys proposed
	maxStateDepth  = 3   // object levels searched for state and the session scope
	maxMembers     = 256 // members of an object searched (more: a map of data)
	maxCommentRune = 4000
	freeTextWords  = 4  // a value of this many words or more is free text
	freeTextChars  = 80 // as is one longer than this
)

// Options change a draft.
type Options struct {
	// Schema is the draft's "$schema"; "" leaves it out.
	Schema string
}

// FromJSON drafts a manifest from a sample's JSON text. A sample larger
// than MaxSampleBytes is state_too_large, one that is not JSON
// invalid_state; the messages never quote the sample.
func FromJSON(sample []byte, opt Options) ([]byte, *wire.Error) {
	if len(sample) > MaxSampleBytes {
		return nil, wire.NewError(wire.CodeStateTooLarge, "the sample exceeds "+strconv.Itoa(MaxSampleBytes)+
			" bytes; a few records of each kind are enough", "state")

	}
	v, err := jsonval.Parse(sample)
	if err != nil {
		return nil, wire.NewError(wire.CodeInvalidState, "the sample is not valid JSON: "+err.Error(), "state")
	}
	return Manifest(v, opt)
}

// Manifest drafts a manifest from a parsed sample and returns it as
// indented JSON text. The draft always compiles; a draft that would not is
// an internal_error (a bug of this package).
func Manifest(sample *jsonval.Value, opt Options) ([]byte, *wire.Error) {
	d := &drafter{regionIDs: map[string]bool{}}
	d.find(sample, nil, "", 0)
	m := d.build(sample, opt)
	text := appendIndented(nil, m, "")
	text = append(text, '\n')
	if _, e := manifest.Parse(text); e != nil {
		return nil, wire.NewError(wire.CodeInternal, "the draft does not compile: "+e.Message, "")
	}
	return text, nil
}

// collection is an array of records found in the sample.
type collection struct {
	from   jsonval.Pointer
	name   string // the key that names it
	id     string // the id key of its items
	idWhy  string
	items  []*jsonval.Value
	region string
}

// feedbackCand is an array of messages found in the sample.
type feedbackCand struct {
	from                jsonval.Pointer
	text, level, source string
	sensitive           bool
}

// pageCand is an object holding the route.
type pageCand struct {
	at                  jsonval.Pointer
	route, title, query string
}

type stateCand struct {
	name string
	from jsonval.Pointer
	key  string
}

type drafter struct {
	collections []collection
	feedback    []feedbackCand
	page        *pageCand
	state       []stateCand
	scope       jsonval.Pointer
	notes       []string // arrays of objects that are not collections, and why
	regionIDs   map[string]bool
}

// find walks the objects of the sample (never into arrays: a collection's
// from is an absolute path) for collections, feedback, page, state and
// session scope.
func (d *drafter) find(v *jsonval.Value, at jsonval.Pointer, key string, depth int) {
	if v == nil || depth > maxDepth {
		return
	}
	switch v.Kind {
	case jsonval.Array:
		d.array(v, at, key)
	case jsonval.Object:
		if len(v.Keys) > maxMembers {
			d.notes = append(d.notes, ptrText(at)+" has more than "+strconv.Itoa(maxMembers)+" members and was not searched (a map of records? collections are arrays)")
			return
		}
		if depth <= maxItemDepth {
			d.pageIn(v, at, key)
		}
		for i, k := range v.Keys {
			if dataKey(k) {
				continue
			}
			child := append(append(jsonval.Pointer{}, at...), k)
			c := v.Vals[i]
			if d.page != nil && k == d.page.query && slices.Equal(d.page.at, at) {
				continue // the page's parameters are not state
			}
			if c.Kind != jsonval.Array && c.Kind != jsonval.Object && depth < maxStateDepth {
				d.stateOrScope(k, c, child, key)
			}
			if c.Kind == jsonval.Array && depth < maxStateDepth && scalars(c) && hasWord(k, stateWords) {
				d.stateOrScope(k, c, child, key)
			}
			d.find(c, child, k, depth+1)
		}
	}
}

// array decides what an array of the sample is: feedback, a collection, or
// nothing.
func (d *drafter) array(v *jsonval.Value, at jsonval.Pointer, key string) {
	if len(v.Items) == 0 {
		return
	}
	for _, it := range v.Items {
		if it.Kind != jsonval.Object {
			return
		}
	}
	if hasWord(key, feedbackWords) {
		if f, ok := feedbackOf(v, at); ok {
			d.feedback = append(d.feedback, f)
			return
		}
	}
	id, why, reason := idKey(v.Items, key)
	if id == "" {
		d.notes = append(d.notes, ptrText(at)+" "+reason)
		return
	}
	d.collections = append(d.collections, collection{from: at, name: key, id: id, idWhy: why, items: v.Items})
}

// idKeyWords are the names (or last words of names) of id-like keys, best
// first.
var idKeyWords = []string{"id", "uuid", "guid", "key", "number", "no", "sku", "slug", "code", "ref", "handle"}

// idKey picks the id key of a collection's items: present in every item,
// a valid record id in each, unique across the sample, and neither named
// nor looking like anything sensitive (ids are always shown plain).
func idKey(items []*jsonval.Value, name string) (key, why, reason string) {
	type cand struct {
		key  string
		rank int
	}
	var cands []cand
	single := singular(strings.ToLower(name))
	for _, k := range items[0].Keys {
		ws := lint.Words(k)
		if len(ws) == 0 {
			continue
		}
		rank := -1
		for r, w := range idKeyWords {
			if ws[len(ws)-1] == w {
				rank = r
				break
			}
		}
		if rank < 0 {
			continue
		}
		if len(ws) > 1 {
			rank += len(idKeyWords) // orderId after id
			if strings.Join(ws[:len(ws)-1], "") == single {
				rank -= len(idKeyWords) / 2 // but orderId in orders before other *Id
			}
		}
		cands = append(cands, cand{k, rank})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].rank != cands[j].rank {
			return cands[i].rank < cands[j].rank
		}
		return cands[i].key < cands[j].key
	})
	if len(cands) == 0 {
		return "", "", "holds objects without an id-like key (id, uuid, key, number, sku, slug, code, or a name ending in one of them): not a collection"
	}
	reason = "holds objects whose id-like keys are missing from some, not unique or not valid ids: not a collection"
next:
	for _, c := range cands {
		if sensitiveName(c.key) {
			continue // an id is shown plain: never a passport, IBAN, reset or session code
		}
		seen := map[string]bool{}
		for _, it := range items {
			v := it.Get(c.key)
			id, ok := project.RecordID(v)
			if !ok || seen[id] || lint.ValueLooksLike(v).Any() {
				continue next
			}
			seen[id] = true
		}
		return c.key, "id " + strconv.Quote(c.key) + ": present, valid and unique in all " + strconv.Itoa(len(items)) + " records of the sample", ""
	}
	return "", "", reason
}

// singular drops a plural s: "orders" -> "order".
func singular(s string) string {
	if strings.HasSuffix(s, "ies") {
		return s[:len(s)-3] + "y"
	}
	return strings.TrimSuffix(s, "s")
}

// Recognised key words.
var (
	feedbackWords = []string{"toast", "toasts", "notification", "notifications", "notice", "notices", "alert", "alerts",
		"flash", "flashes", "snackbar", "snackbars", "banner", "banners"}
	textKeys     = []string{"message", "text", "title", "body", "msg", "content", "description", "label"}
	levelKeys    = []string{"level", "kind", "severity", "type", "variant", "status"}
	sourceKeys   = []string{"source", "origin"}
	routeKeys    = []string{"path", "pathname", "route", "url"}
	routeHolders = []string{"router", "route", "routing", "location", "nav", "navigation", "page", "history"}
	titleKeys    = []string{"title", "pageTitle", "documentTitle"}
	queryKeys    = []string{"query", "params", "search", "searchParams", "queryParams"}
	stateWords   = []string{"filter", "filters", "sort", "sorting", "selected", "selection", "search", "tab", "view", "page", "step"}
	listingWords = []string{"filter", "filters", "sort", "sorting", "search", "page"}
	scopeKeys    = []string{"tenant", "tenantId", "workspace", "workspaceId", "org", "orgId", "organization", "organizationId", "accountId"}
	genericNames = []string{"items", "list", "data", "records", "rows", "entries", "results", "all", "nodes", "values",
		"entities", "collection", "docs", "elements", "byId"}
	// Words of names left out whatever their values: internal data, and
	// secrets the detectors' name list does not cover.
	internalWords = []string{"internal", "private", "hidden", "debug", "secret", "auth", "authcode", "csrf", "xsrf",
		"nonce", "salt", "signature", "hash", "fraud", "risk", "reset", "session"}
	// Words of names of personal data the detectors do not judge.
	personalWords = []string{"street", "address", "zip", "postcode", "postal", "birthday", "birthdate", "dob", "ssn",
		"iban", "passport", "salary", "ip"}
	// Last words of names of user-authored text.
	freeTextNames = []string{"note", "notes", "comment", "comments", "description", "message", "body", "text", "bio",
		"review", "remark", "remarks", "instructions", "feedback", "content", "summary"}
)

func feedbackOf(v *jsonval.Value, at jsonval.Pointer) (feedbackCand, bool) {
	f := feedbackCand{from: at}
	f.text = firstKey(v.Items, textKeys, jsonval.String)
	if f.text == "" {
		return f, false
	}
	f.level = firstKey(v.Items, levelKeys, jsonval.String)
	f.source = firstKey(v.Items, sourceKeys, jsonval.String)
	for _, it := range v.Items {
		if lint.ValueLooksLike(it.Get(f.text)).Any() {
			f.sensitive = true
		}
	}
	return f, true
}

// firstKey returns the first of keys that holds a value of kind in some
// item.
func firstKey(items []*jsonval.Value, keys []string, kind jsonval.Kind) string {
	for _, k := range keys {
		for _, it := range items {
			if v := it.Get(k); v != nil && v.Kind == kind {
				return k
			}
		}
	}
	return ""
}

// pageIn takes v as the page when it holds a route (a string starting with
// / or #/ under path, pathname or route, or under url in an object named
// like a router); the shallowest one wins, then the first in pointer order.
func (d *drafter) pageIn(v *jsonval.Value, at jsonval.Pointer, key string) {
	if d.page != nil && (len(d.page.at) < len(at) || len(d.page.at) == len(at) && d.page.at.String() <= at.String()) {
		return // the shallowest route holder wins, then the first in pointer order
	}
	var p pageCand
	for _, k := range routeKeys {
		if k == "url" && !hasWord(key, routeHolders) {
			continue
		}
		if r := v.Get(k); r != nil && r.Kind == jsonval.String && (strings.HasPrefix(r.S, "/") || strings.HasPrefix(r.S, "#/")) {
			p.route = k
			break
		}
	}
	if p.route == "" {
		return
	}
	p.at = append(jsonval.Pointer{}, at...)
	for _, k := range titleKeys {
		if t := v.Get(k); t != nil && t.Kind == jsonval.String {
			p.title = k
			break
		}
	}
	for _, k := range queryKeys {
		if q := v.Get(k); q != nil && q.Kind == jsonval.Object {
			p.query = k
			break
		}
	}
	d.page = &p
}

// stateOrScope proposes a scalar member as a state key (a list control) or
// as the session scope (a tenant).
func (d *drafter) stateOrScope(k string, v *jsonval.Value, at jsonval.Pointer, parent string) {
	if slices.Contains(scopeKeys, k) && (v.Kind == jsonval.String || v.IsInteger()) {
		if d.scope == nil || len(at) < len(d.scope) || len(at) == len(d.scope) && at.String() < d.scope.String() {
			d.scope = at // the shallowest tenant key wins, then the first in pointer order
		}
		return
	}
	if !hasWord(k, stateWords) || len(d.state) >= maxStateKeys {
		return
	}
	if d.page != nil && slices.Equal(d.page.at, at[:len(at)-1]) {
		return // the route holder's members are the page
	}
	if sensitiveName(k) || lint.ValueLooksLike(v).Any() {
		return
	}
	name := camel(lint.Words(k))
	if name == "" {
		return
	}
	d.state = append(d.state, stateCand{name: name, from: at, key: parent})
}

// build assembles the draft.
func (d *drafter) build(sample *jsonval.Value, opt Options) *jsonval.Value {
	m := jsonval.NewObject()
	if opt.Schema != "" {
		m.Set(manifest.SchemaMember, jsonval.NewString(opt.Schema))
	}
	m.Set(manifest.Comment, nil) // placeholder, written last
	m.Set("pinhole", &jsonval.Value{Kind: jsonval.Number, S: strconv.Itoa(manifest.Format)})
	var top []string
	top = append(top, "Drafted by pinhole init from a sample of the store: a least-exposure proposal, not a decision. Each $comment says why; review every choice, describe the regions for the agent, add capabilities, then run pinhole lint.")

	var redescribe []jsonval.Pointer
	if p := d.page; p != nil {
		page := jsonval.NewObject()
		page.Set("route", jsonval.NewString(append(p.at, p.route).String()))
		why := "route " + strconv.Quote(p.route) + " holds a path"
		redescribe = append(redescribe, append(append(jsonval.Pointer{}, p.at...), p.route))
		if p.title != "" {
			page.Set("title", jsonval.NewString(append(append(jsonval.Pointer{}, p.at...), p.title).String()))
			why += ", title beside it"
		}
		if p.query != "" {
			q := append(append(jsonval.Pointer{}, p.at...), p.query)
			allow, left, unnamed := allowedParams(q.Resolve(sample))
			if len(allow) > 0 {
				params := jsonval.NewObject()
				params.Set("from", jsonval.NewString(q.String()))
				arr := &jsonval.Value{Kind: jsonval.Array}
				for _, a := range allow {
					arr.Items = append(arr.Items, jsonval.NewString(a))
				}
				params.Set("allow", arr)
				page.Set("params", params)
				why += "; params " + strconv.Quote(p.query) + " allows " + strings.Join(allow, ", ")
			}
			if len(left) > 0 {
				why += "; not allowed: " + strings.Join(left, ", ") + " (named like internal or sensitive data, or not scalar)"
			}
			if unnamed > 0 {
				why += "; " + strconv.Itoa(unnamed) + " more not allowed and not named here: their names look like data"
			}
		}
		page.Set(manifest.Comment, jsonval.NewString(clip(why+".")))
		m.Set("page", page)
	} else {
		top = append(top, "No page: no object with a route key (path, pathname, route, url) holding a path was found.")
	}

	sort.Slice(d.collections, func(i, j int) bool { return d.collections[i].from.String() < d.collections[j].from.String() })
	regions := &jsonval.Value{Kind: jsonval.Array}
	cols := &jsonval.Value{Kind: jsonval.Array}
	for i := range d.collections {
		c := &d.collections[i]
		name := c.name
		if (slices.Contains(genericNames, name) || name == "") && len(c.from) >= 2 {
			name = c.from[len(c.from)-2]
		}
		if name == "" || slices.Contains(genericNames, name) {
			name = "records"
		}
		c.region = d.regionID(name)
		r := jsonval.NewObject()
		r.Set("id", jsonval.NewString(c.region))
		r.Set("description", jsonval.NewString(humanize(name)))
		r.Set(manifest.Comment, jsonval.NewString("One region per collection. The description is what the agent reads: say what these records are; add activeWhen if they are not always on screen."))
		regions.Items = append(regions.Items, r)
		cols.Items = append(cols.Items, d.collectionOf(c))
	}
	if len(d.collections) == 0 {
		top = append(top, "No collection found: no array of objects with an id-like key (id, uuid, key, number, sku, slug, code, or a name ending in one of them) whose values are unique across the sample. Add records to the sample, or declare collections by hand.")
	}
	if len(d.notes) > 0 {
		sort.Strings(d.notes)
		top = append(top, "Not collections: "+strings.Join(d.notes, "; ")+".")
	}
	if len(regions.Items) > 0 {
		m.Set("regions", regions)
		m.Set("collections", cols)
	}

	if len(d.state) > 0 {
		st := jsonval.NewObject()
		names := map[string]int{}
		for _, s := range d.state {
			names[s.name]++
		}
		sort.Slice(d.state, func(i, j int) bool { return d.state[i].from.String() < d.state[j].from.String() })
		var keys []string
		used := map[string]bool{}
		for i := range d.state {
			s := &d.state[i]
			if names[s.name] > 1 && s.key != "" {
				s.name = camel(append(lint.Words(s.key), lint.Words(s.name)...))
			}
			// Still the same name (two "ui.filter" in different places): a
			// number tells them apart, as for fields.
			base := s.name
			for n := 2; used[s.name]; n++ {
				s.name = base + strconv.Itoa(n)
			}
			used[s.name] = true
			keys = append(keys, s.name)
			if hasWord(s.name, listingWords) {
				redescribe = append(redescribe, s.from)
			}
		}
		st.Set(manifest.Comment, jsonval.NewString(clip("List controls and selections, named filter, sort, selected, search, tab, view, page or step: "+
			strings.Join(keys, ", ")+". State keys are shown plain; none looks sensitive in the sample.")))
		sort.Slice(d.state, func(i, j int) bool { return d.state[i].name < d.state[j].name })
		for _, s := range d.state {
			st.Set(s.name, jsonval.NewString(s.from.String()))
		}
		m.Set("state", st)
	}

	sort.Slice(d.feedback, func(i, j int) bool { return d.feedback[i].from.String() < d.feedback[j].from.String() })
	for _, f := range d.feedback {
		if f.sensitive {
			top = append(top, "Feedback "+ptrText(f.from)+" left out: some messages in the sample look like contact details or credentials, and feedback is shown plain.")
			continue
		}
		if m.Get("feedback") != nil {
			top = append(top, "Feedback "+ptrText(f.from)+" not declared: a manifest has one feedback list.")
			continue
		}
		fb := jsonval.NewObject()
		fb.Set("from", jsonval.NewString(f.from.String()))
		fb.Set("text", jsonval.NewString(jsonval.Pointer{f.text}.String()))
		why := "An array named like messages (" + strconv.Quote(lastToken(f.from)) + ") whose items hold text in " + strconv.Quote(f.text)
		if f.level != "" {
			fb.Set("level", jsonval.NewString(jsonval.Pointer{f.level}.String()))
			why += ", a level in " + strconv.Quote(f.level)
		}
		if f.source != "" {
			fb.Set("source", jsonval.NewString(jsonval.Pointer{f.source}.String()))
			why += ", a source in " + strconv.Quote(f.source)
		}
		fb.Set(manifest.Comment, jsonval.NewString(clip(why+". Messages are shown plain.")))
		m.Set("feedback", fb)
	}

	top = append(top, "Capabilities: none proposed; an agent may act only through the actions you declare (name, description, scope page or record, region, input).")
	if len(redescribe) > 0 {
		arr := &jsonval.Value{Kind: jsonval.Array}
		var list []string
		seen := map[string]bool{}
		for _, p := range redescribe {
			s := p.String()
			if !seen[s] {
				seen[s] = true
				list = append(list, s)
			}
		}
		sort.Strings(list)
		for _, s := range list {
			arr.Items = append(arr.Items, jsonval.NewString(s))
		}
		m.Set("redescribeOn", arr)
		top = append(top, "redescribeOn: the route and the list controls, whose change means other records are listed.")
	}
	if d.scope != nil {
		m.Set("sessionScope", jsonval.NewString(d.scope.String()))
		top = append(top, "sessionScope: "+ptrText(d.scope)+" is named like a tenant; when it changes, aliases and placeholders change, and while it is absent no context is given.")
	}
	m.Set(manifest.Comment, jsonval.NewString(clip(strings.Join(top, " "))))
	return m
}

func (d *drafter) regionID(name string) string {
	id := strings.Join(lint.Words(name), "-")
	if id == "" {
		id = "records"
	}
	if len(id) > 100 {
		id = id[:100]
	}
	out := id
	for n := 2; d.regionIDs[out]; n++ {
		out = id + "-" + strconv.Itoa(n)
	}
	d.regionIDs[out] = true
	return out
}

// allowedParams splits the members of a query object into those the page
// may show (scalar, not named or looking sensitive or internal) and the
// rest, each sorted; members whose name is itself data (an e-mail, a card
// number, a token) are only counted, never named.
func allowedParams(q *jsonval.Value) (allow, left []string, unnamed int) {
	if q == nil || q.Kind != jsonval.Object {
		return nil, nil, 0
	}
	for i, k := range q.Keys {
		v := q.Vals[i]
		if nameIsData(k) {
			unnamed++
			continue
		}
		if v.Kind == jsonval.Object || v.Kind == jsonval.Array || sensitiveName(k) || lint.ValueLooksLike(v).Any() ||
			len([]rune(k)) > 128 || k == "" || camel(lint.Words(k)) == "" || strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			left = append(left, strconv.Quote(k))
			continue
		}
		allow = append(allow, k)
	}
	sort.Strings(allow)
	sort.Strings(left)
	return allow, left, unnamed
}

// sensitiveName reports whether a name is left out whatever its values.
func sensitiveName(k string) bool {
	return lint.NameSuggests(k).Any() || hasWord(k, internalWords) || hasWord(k, personalWords)
}

// field is one leaf of a collection's records.
type field struct {
	from   jsonval.Pointer
	values []*jsonval.Value // one per record that has it
	list   bool             // a list of objects
	deep   bool             // nested deeper than maxItemDepth
}

func (d *drafter) collectionOf(c *collection) *jsonval.Value {
	leaves := map[string]*field{}
	unnamed := map[string]bool{}
	for _, it := range c.items {
		collect(it, nil, 0, leaves, unnamed)
	}
	delete(leaves, jsonval.Pointer{c.id}.String())
	keys := make([]string, 0, len(leaves))
	for k := range leaves {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	fields := jsonval.NewObject()
	fields.Set(manifest.Comment, nil)
	used := map[string]bool{}
	var left []string
	counts := map[string]int{}
	for _, k := range keys {
		f := leaves[k]
		if len(used) >= maxFields {
			left = append(left, k+" (past "+strconv.Itoa(maxFields)+" fields)")
			continue
		}
		expose, content, why, keep := judge(f, len(c.items))
		if !keep {
			left = append(left, k+" ("+why+")")
			continue
		}
		name := camel(fieldWords(f.from))
		if name == "" {
			name = "field"
		}
		base := name
		for n := 2; used[name]; n++ {
			name = base + strconv.Itoa(n)
		}
		used[name] = true
		fo := jsonval.NewObject()
		fo.Set("from", jsonval.NewString(f.from.String()))
		if expose != "plain" {
			fo.Set("expose", jsonval.NewString(expose))
		}
		if content {
			fo.Set("content", jsonval.NewString("user"))
			counts["user content"]++
		}
		counts[expose]++
		fo.Set(manifest.Comment, jsonval.NewString(clip(why)))
		fields.Set(name, fo)
	}
	var sum []string
	total := 0
	for _, k := range []string{"plain", "mask", "alias", "placeholder"} {
		if counts[k] > 0 {
			sum = append(sum, strconv.Itoa(counts[k])+" "+k)
			total += counts[k]
		}
	}
	fc := "Fields: " + strconv.Itoa(total) + " (" + strings.Join(sum, ", ") + ")"
	if n := counts["user content"]; n > 0 {
		// User content is a mark on a field, not a fourth mode: counted apart.
		fc += ", " + strconv.Itoa(n) + " of them user content"
	}
	if total == 0 {
		fc = "Fields: none proposed"
	}
	fc += ". The id is the record id, not a field."
	if len(left) > 0 {
		fc += " Left out (declare one only if the agent needs it): " + strings.Join(left, "; ") + "."
	}
	if len(unnamed) > 0 {
		fc += " Also left out, not named here: " + strconv.Itoa(len(unnamed)) + " members whose names look like data (an e-mail, a phone or card number, a token): a map keyed by data is no field."
	}
	fields.Set(manifest.Comment, jsonval.NewString(clip(fc)))

	col := jsonval.NewObject()
	col.Set("region", jsonval.NewString(c.region))
	col.Set("from", jsonval.NewString(c.from.String()))
	col.Set("id", jsonval.NewString(jsonval.Pointer{c.id}.String()))
	col.Set(manifest.Comment, jsonval.NewString(clip("An array of "+strconv.Itoa(len(c.items))+" objects in the sample; "+c.idWhy+".")))
	col.Set("fields", fields)
	return col
}

// collect records the leaves of one record: scalars and lists of scalars,
// and, to leave them out with a reason, lists of objects and values nested
// too deep. A member whose name is itself data is never a field and never
// named: its pointer goes into unnamed, to be counted.
func collect(v *jsonval.Value, at jsonval.Pointer, depth int, leaves map[string]*field, unnamed map[string]bool) {
	for i, k := range v.Keys {
		p := append(append(jsonval.Pointer{}, at...), k)
		if nameIsData(k) {
			if len(unnamed) < 4*maxFields {
				unnamed[p.String()] = true
			}
			continue
		}
		c := v.Vals[i]
		key := p.String()
		f := leaves[key]
		if f == nil {
			if len(leaves) >= 4*maxFields {
				continue
			}
			f = &field{from: p}
		}
		switch {
		case c.Kind == jsonval.Object && depth+1 < maxItemDepth:
			collect(c, p, depth+1, leaves, unnamed)
			continue
		case c.Kind == jsonval.Object:
			f.deep = true
		case c.Kind == jsonval.Array && !scalars(c):
			f.list = true
		}
		f.values = append(f.values, c)
		leaves[key] = f
	}
}

// judge proposes the exposure of a field and says why.
func judge(f *field, records int) (expose string, content bool, why string, keep bool) {
	last := f.from[len(f.from)-1]
	name := camel(fieldWords(f.from))
	nk := lint.NameSuggests(name).Or(lint.NameSuggests(last))
	var vk lint.Kinds
	nonNull, strs, free := 0, 0, 0
	var cards, ibans, phones, emails int // records whose value looks like one
	for _, v := range f.values {
		k := lint.ValueLooksLike(v)
		vk = vk.Or(k)
		cards, ibans, phones, emails = cards+b2i(k.Card), ibans+b2i(k.IBAN), phones+b2i(k.Phone), emails+b2i(k.Email)
		if v.Kind != jsonval.Null && !(v.Kind == jsonval.String && v.S == "") {
			nonNull++ // an empty string says no more than null
		}
		if v.Kind == jsonval.String {
			strs++
			if len(strings.Fields(v.S)) >= freeTextWords || len([]rune(v.S)) > freeTextChars {
				free++
			}
		}
	}
	// in says in how many records the values look so (n), or, when the
	// name alone decided (n is 0), in how many the field is present.
	in := func(n int) string {
		if n == 0 {
			return ", present in " + strconv.Itoa(len(f.values)) + " of " + strconv.Itoa(records) + " records"
		}
		return " in " + strconv.Itoa(n) + " of " + strconv.Itoa(records) + " records"
	}
	by := func(kind string) string {
		switch {
		case nk.Or(vk) == nk && vk.Any():
			return "named like and values look like " + kind
		case vk.Any():
			return "values look like " + kind
		}
		return "named like " + kind
	}
	k := nk.Or(vk)
	switch {
	case f.list:
		return "", false, "a list of objects: declare the parts the agent needs", false
	case f.deep:
		return "", false, "nested too deep: declare the parts the agent needs", false
	case k.Credential:
		return "", false, by("a credential or token") + ": never shown to an agent", false
	case hasWord(name, internalWords) || hasWord(last, internalWords):
		return "", false, "named like internal or secret data", false
	case hasWord(name, personalWords) || hasWord(last, personalWords):
		return "", false, "personal data the detectors do not judge", false
	case nonNull == 0:
		return "", false, "no value in the sample to judge", false
	case k.Card:
		return "placeholder", false, by("card numbers") + in(cards) + ": placeholder, which only the app's handler resolves", true
	case k.IBAN:
		return "placeholder", false, by("IBANs") + in(ibans) + ": placeholder, which only the app's handler resolves", true
	case k.Phone:
		return "alias", false, by("phone numbers") + in(phones) + ": alias, a per-session pseudonym the agent can refer to", true
	case k.Email:
		return "mask", false, by("e-mail addresses") + in(emails) + ": masked, the first letter and the domain kept (x***@domain)", true
	case strs > 0 && (free > 0 || lastWordIn(last, freeTextNames)):
		return "plain", true, "free text (" + strconv.Itoa(freeTextWords) + " words or more, or named like a note)" + in(free) +
			": content user, read as data, never as instructions", true
	}
	return "plain", false, "short values, nothing sensitive found by name or value" + in(0), true
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fieldWords are the words of a field's path, for its name.
func fieldWords(p jsonval.Pointer) []string {
	var ws []string
	for _, t := range p {
		ws = append(ws, lint.Words(t)...)
	}
	return ws
}

// camel joins words in camelCase: customer, email -> customerEmail.
func camel(ws []string) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 && w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		} else {
			b.WriteString(w)
		}
	}
	return b.String()
}

// humanize turns a key into a description: openOrders -> "Open orders".
func humanize(name string) string {
	s := strings.Join(lint.Words(name), " ")
	if s == "" {
		return "Records"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// lastWordIn reports whether the last word of name is in list.
func lastWordIn(name string, list []string) bool {
	ws := lint.Words(name)
	return len(ws) > 0 && slices.Contains(list, ws[len(ws)-1])
}

func hasWord(name string, list []string) bool {
	for _, w := range lint.Words(name) {
		// A word with digits after it counts too: "ip4", "address2".
		if slices.Contains(list, w) || slices.Contains(list, strings.TrimRight(w, "0123456789")) {
			return true
		}
	}
	return slices.Contains(list, strings.ToLower(name))
}

// scalars reports whether v is an array of scalars.
func scalars(v *jsonval.Value) bool {
	for _, it := range v.Items {
		if it.Kind == jsonval.Array || it.Kind == jsonval.Object {
			return false
		}
	}
	return true
}

func lastToken(p jsonval.Pointer) string {
	if len(p) == 0 {
		return ""
	}
	return p[len(p)-1]
}

// ptrText names a place of the sample in a comment: its pointer, or "the
// sample" for the root.
func ptrText(p jsonval.Pointer) string {
	if len(p) == 0 {
		return "the sample"
	}
	return p.String()
}

// nameIsData reports whether a member's name is itself a value the
// detectors flag (an e-mail, a phone or card number, a credential): such a
// member is never proposed and never named, only counted. A name that only
// suggests sensitive data ("password") is a field name, left out by name.
func nameIsData(k string) bool { return lint.ValueLooksLike(jsonval.NewString(k)).Any() }

// dataKey reports whether a member name looks like data rather than a
// name (a map keyed by e-mail addresses, a token as a key): the draft
// neither descends into its value nor names it.
func dataKey(k string) bool { return nameIsData(k) || lint.NameSuggests(k).Credential }

// clip keeps a comment within the compiler's bound, with control
// characters (from keys of the sample) replaced.
func clip(s string) string {
	r := []rune(s)
	for i, c := range r {
		if c < 0x20 || c == 0x7f {
			r[i] = '?'
		}
	}
	if len(r) <= maxCommentRune {
		return string(r)
	}
	return string(r[:maxCommentRune-1]) + "…"
}
