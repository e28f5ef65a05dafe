package manifest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// maxNameChars bounds names, ids, descriptions and reasons in a manifest.
const (
	maxNameChars = 128
	maxTextChars = 1024
)

// Comment is the member that annotates a manifest object: a string for the
// manifest's author and editor, which the compiler checks and ignores. It is
// accepted on the manifest itself and on its limits, page, page params,
// regions, collections, fields, feedback, capabilities and unavailable
// rules, and in the state map and a collection's fields map, where it is a
// comment and not a name. Never in conditions or input schemas, whose
// members reach the agent.
const Comment = "$comment"

// SchemaMember is the manifest's top-level "$schema": the URI of a JSON
// Schema editors check the manifest with. The compiler checks that it is a
// string and ignores it.
const SchemaMember = "$schema"

// maxCommentChars bounds a "$comment" or "$schema" string.
const maxCommentChars = 4096

// Parse parses and compiles a manifest from its JSON text. A fault is an
// invalid_manifest error.
func Parse(data []byte) (*Plan, *wire.Error) {
	v, err := jsonval.Parse(data)
	if err != nil {
		return nil, wire.NewError(wire.CodeInvalidManifest, "the manifest is not valid JSON: "+err.Error(), "")
	}
	return Compile(v)
}

// Compile validates a parsed manifest and compiles it into a Plan. The
// first fault is an invalid_manifest error whose Param is its JSON Pointer
// in the manifest.
func Compile(v *jsonval.Value) (*Plan, *wire.Error) {
	b := &planBlock{plan: Plan{Limits: Defaults()}}
	c := compiler{plan: &b.plan, block: b}
	c.manifest(v)
	if c.err == nil {
		c.checkOverlap()
	}
	if c.err != nil {
		return nil, c.err
	}
	c.plan.tree = &b.tree
	c.plan.buildReads()
	return c.plan, nil
}

// planBlock holds a plan with the parts every plan has at most one of: one
// allocation for all of them. It also has room for the lists a manifest
// usually keeps short; a longer list gets an allocation of its own (see
// room).
type planBlock struct {
	plan         Plan
	page         Page
	feedback     Feedback
	tree         prune.Tree
	regions      [4]Region
	collections  [2]Collection
	state        [8]StateKey
	redescribeOn [4]jsonval.Pointer
}

// room returns an empty slice with room for n: in arr when n fits, in a new
// array otherwise.
func room[T any](arr []T, n int) []T {
	if n <= len(arr) {
		return arr[:0:n]
	}
	return make([]T, 0, n)
}

// strings returns n empty strings, carved out of c.tokens.
func (c *compiler) strings(n int) []string {
	if cap(c.tokens)-len(c.tokens) < n {
		c.tokens = make([]string, 0, max(n, 64))
	}
	l := len(c.tokens)
	c.tokens = c.tokens[:l+n]
	return c.tokens[l : l+n : l+n]
}

type compiler struct {
	plan  *Plan
	block *planBlock // where plan, its page, its feedback and its read tree are
	err   *wire.Error
	// text is where the input schemas' encodings are written, one after
	// the other, instead of a buffer each.
	text []byte
	// tokens is where the plan's pointers are carved from, a chunk at a
	// time, instead of an allocation per pointer; conds and rules likewise
	// for conditions and capabilities' rules. A load allocates as little
	// as it can (BENCHMARKS.md, "Tier-up budgets at start-up").
	tokens []string
	conds  []Cond
	rules  []Rule
}

// newCond returns a new condition, carved out of c.conds.
func (c *compiler) newCond(cd Cond) *Cond {
	if len(c.conds) == cap(c.conds) {
		c.conds = make([]Cond, 0, 16)
	}
	c.conds = append(c.conds, cd)
	return &c.conds[len(c.conds)-1]
}

// newRules returns an empty list of rules with room for n, carved out of
// c.rules.
func (c *compiler) newRules(n int) []Rule {
	if cap(c.rules)-len(c.rules) < n {
		c.rules = make([]Rule, 0, max(n, 16))
	}
	l := len(c.rules)
	c.rules = c.rules[:l+n]
	return c.rules[l : l : l+n]
}

// fail records the first fault; at is where in the manifest it is.
func (c *compiler) fail(at loc, msg string) {
	if c.err == nil {
		// A copy, so that no loc's contents outlive the call: the locs of
		// the walk then stay on the stack.
		p := strings.Clone(at.String())
		if p == "" {
			p = "/"
		}
		c.err = wire.NewError(wire.CodeInvalidManifest, p+": "+msg, p)
	}
}

// object checks that v is an object with only the allowed keys, and that
// the required ones are present.
func (c *compiler) object(v *jsonval.Value, at loc, required []string, allowed ...string) bool {
	return c.keys(v, at, required, allowed, false)
}

// keys is object, with "$comment" allowed too when comment is set.
func (c *compiler) keys(v *jsonval.Value, at loc, required, allowed []string, comment bool) bool {
	if v == nil || v.Kind != jsonval.Object {
		c.fail(at, "must be an object")
		return false
	}
	if k := unknownKey(v.Keys, required, allowed, comment); k >= 0 {
		c.fail(at.in(v.Keys[k]), "unknown key"+didYouMean(v.Keys[k], required, allowed, comment))
		return false
	}
	for _, r := range required {
		if v.Get(r) == nil {
			c.fail(at.in(r), "is required")
			return false
		}
	}
	return true
}

// unknownKey returns the position of the first of keys that is neither
// required nor allowed (nor "$comment", when comment is set), or -1. It is
// a small function of its own so that its loop does not count against a
// large function's tier-up budget in V8 (jsonval's plainRun explains why).
func unknownKey(keys, required, allowed []string, comment bool) int {
	for i, k := range keys {
		if !slices.Contains(allowed, k) && !slices.Contains(required, k) && !(comment && k == Comment) {
			return i
		}
	}
	return -1
}

// annotated checks the member named k ("$comment" or "$schema") of an
// object that accepts it: a string of 1 to maxCommentChars characters.
func (c *compiler) annotated(v *jsonval.Value, at loc, k string) bool {
	if m := v.Get(k); m != nil {
		c.str(m, at.in(k), maxCommentChars)
	}
	return c.err == nil
}

// commented is object followed by the check of the object's comment.
func (c *compiler) commented(v *jsonval.Value, at loc, required []string, allowed ...string) bool {
	return c.keys(v, at, required, allowed, true) && c.annotated(v, at, Comment)
}

func (c *compiler) str(v *jsonval.Value, at loc, max int) string {
	if v == nil || v.Kind != jsonval.String {
		c.fail(at, "must be a string")
		return ""
	}
	return c.name(v.S, at, max)
}

// name returns s if it is 1 to max characters long with no control
// characters, and reports a fault at at otherwise.
func (c *compiler) name(s string, at loc, max int) string {
	n, control := textStats(s)
	if n == 0 || n > max {
		c.fail(at, "must be 1 to "+strconv.Itoa(max)+" characters")
		return ""
	}
	if control {
		c.fail(at, "must not contain control characters")
		return ""
	}
	return s
}

// textStats counts the characters of s and reports whether one of them is
// a control character (below U+0020, or U+007F). A text longer than a word
// goes to textWords (see jsonval's plainRun for why).
func textStats(s string) (n int, control bool) {
	if len(s) > 8 {
		return textWords(s)
	}
	for _, r := range s {
		n++
		control = control || r < 0x20 || r == 0x7f
	}
	return n, control
}

// textWords is textStats reading ASCII eight bytes a step, then runes from
// the first word that is not ASCII. The word tests are written out: the
// module is built without inlining (Makefile, WASM_FLAGS).
func textWords(s string) (n int, control bool) {
	const ones, top = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if x&top != 0 {
			break // not ASCII: counted as runes below
		}
		del := x ^ (ones * 0x7f) // a zero byte where x has U+007F
		control = control || ((x-ones*0x20)&^x|(del-ones)&^del)&top != 0
	}
	n = i
	for _, r := range s[i:] {
		n++
		control = control || r < 0x20 || r == 0x7f
	}
	return n, control
}

// encode returns the canonical encoding of v, carved out of c.text.
func (c *compiler) encode(v *jsonval.Value) []byte {
	if cap(c.text)-len(c.text) < 256 {
		c.text = make([]byte, 0, 4096)
	}
	start := len(c.text)
	c.text = jsonval.Append(c.text, v)
	return c.text[start:len(c.text):len(c.text)]
}

func (c *compiler) ptr(v *jsonval.Value, at loc) jsonval.Pointer {
	if v == nil || v.Kind != jsonval.String {
		c.fail(at, "must be a JSON Pointer string")
		return nil
	}
	if n := jsonval.PointerTokens(v.S); cap(c.tokens)-len(c.tokens) < n {
		c.tokens = make([]string, 0, max(n, 64))
	}
	p, tokens, err := jsonval.AppendPointer(c.tokens, v.S)
	if err != nil {
		c.fail(at, "malformed JSON Pointer: "+err.Error())
		return nil
	}
	c.tokens = tokens
	return p
}

func (c *compiler) manifest(v *jsonval.Value) {
	root := path("")
	if !c.commented(v, root, []string{"pinhole"}, "limits", "page", "regions", "collections",
		"state", "feedback", "capabilities", "redescribeOn", "sessionScope", SchemaMember) || !c.annotated(v, root, SchemaMember) {
		return
	}
	if f := v.Get("pinhole"); f.Kind != jsonval.Number || f.S != strconv.Itoa(Format) {
		c.fail(path("/pinhole"), "unsupported manifest format; this module reads format "+strconv.Itoa(Format))
		return
	}
	if l := v.Get("limits"); l != nil {
		c.limits(l)
	}
	if p := v.Get("page"); p != nil {
		c.page(p)
	}
	c.regions(v.Get("regions"))
	c.collections(v.Get("collections"))
	state := path("/state")
	if s := v.Get("state"); s != nil && c.object(s, state, nil, s.Keys...) && c.annotated(s, state, Comment) {
		c.plan.State = room(c.block.state[:], len(s.Keys))
		for i, k := range s.Keys {
			if k == Comment {
				continue
			}
			at := state.in(k)
			c.name(k, at, maxNameChars)
			c.plan.State = append(c.plan.State, StateKey{Name: k, From: c.ptr(s.Vals[i], at)})
		}
	}
	if f := v.Get("feedback"); f != nil {
		c.feedback(f)
	}
	c.capabilities(v.Get("capabilities"))
	if r, at := v.Get("redescribeOn"), path("/redescribeOn"); r != nil {
		if r.Kind != jsonval.Array {
			c.fail(at, "must be an array of JSON Pointers")
		} else {
			c.plan.RedescribeOn = room(c.block.redescribeOn[:], len(r.Items))
			for i, it := range r.Items {
				c.plan.RedescribeOn = append(c.plan.RedescribeOn, c.ptr(it, at.item(i)))
			}
		}
	}
	if s := v.Get("sessionScope"); s != nil {
		c.plan.SessionScope = c.ptr(s, path("/sessionScope"))
	}
}

func (c *compiler) limits(v *jsonval.Value) {
	names := []string{"defaultLimit", "maxLimit", "maxRecordSelection", "maxRecordIds",
		"maxFieldChars", "maxFeedback", "maxUnavailable", "maxResponseBytes"}
	limits := path("/limits")
	if !c.commented(v, limits, nil, names...) {
		return
	}
	l := &c.plan.Limits
	slots := []*int{&l.DefaultLimit, &l.MaxLimit, &l.MaxRecordSelection, &l.MaxRecordIds,
		&l.MaxFieldChars, &l.MaxFeedback, &l.MaxUnavailable, &l.MaxResponseBytes}
	h := HardMax()
	hard := []int{h.DefaultLimit, h.MaxLimit, h.MaxRecordSelection, h.MaxRecordIds,
		h.MaxFieldChars, h.MaxFeedback, h.MaxUnavailable, h.MaxResponseBytes}
	for i, name := range names {
		n := v.Get(name)
		if n == nil {
			continue
		}
		at := limits.in(name)
		f, ok := wholeNumber(n)
		if !ok || f < 1 {
			c.fail(at, "must be a positive integer")
			return
		}
		if f > float64(hard[i]) {
			c.fail(at, "exceeds the implementation's maximum of "+strconv.Itoa(hard[i]))
			return
		}
		*slots[i] = int(f)
	}
	if l.DefaultLimit > l.MaxLimit {
		c.fail(path("/limits/defaultLimit"), "must not exceed maxLimit ("+strconv.Itoa(l.MaxLimit)+")")
	}
	if l.MaxResponseBytes < MinResponseBytes {
		c.fail(path("/limits/maxResponseBytes"), "must be at least "+strconv.Itoa(MinResponseBytes))
	}
}

func (c *compiler) page(v *jsonval.Value) {
	if !c.commented(v, path("/page"), nil, "route", "title", "params") {
		return
	}
	p := &c.block.page
	if r := v.Get("route"); r != nil {
		p.Route = c.ptr(r, path("/page/route"))
	}
	if t := v.Get("title"); t != nil {
		p.Title = c.ptr(t, path("/page/title"))
	}
	if pr := v.Get("params"); pr != nil && c.commented(pr, path("/page/params"), []string{"from", "allow"}) {
		p.Params = c.ptr(pr.Get("from"), path("/page/params/from"))
		a, allow := pr.Get("allow"), path("/page/params/allow")
		if a.Kind != jsonval.Array {
			c.fail(allow, "must be an array of parameter names")
			return
		}
		p.Allow = c.strings(len(a.Items))
		for i, it := range a.Items {
			p.Allow[i] = c.str(it, allow.item(i), maxNameChars)
		}
	}
	c.plan.Page = p
}

func (c *compiler) regions(v *jsonval.Value) {
	if v == nil {
		return
	}
	regions := path("/regions")
	if v.Kind != jsonval.Array {
		c.fail(regions, "must be an array")
		return
	}
	parents := c.strings(len(v.Items))
	c.plan.Regions = room(c.block.regions[:], len(v.Items))
	c.plan.regionIndex = make(nameIndex, 0, len(v.Items))
	for i, it := range v.Items {
		at := regions.item(i)
		if !c.commented(it, at, []string{"id"}, "parent", "description", "activeWhen") {
			return
		}
		r := Region{ID: c.str(it.Get("id"), at.in("id"), maxNameChars), Parent: -1}
		if c.err == nil && c.plan.lookupRegion(r.ID) >= 0 {
			c.fail(at.in("id"), "duplicate region id")
			return
		}
		if d := it.Get("description"); d != nil {
			r.Description = c.str(d, at.in("description"), maxTextChars)
		}
		if p := it.Get("parent"); p != nil {
			parents[i] = c.str(p, at.in("parent"), maxNameChars)
		}
		if w := it.Get("activeWhen"); w != nil {
			r.ActiveWhen = c.cond(w, at.in("activeWhen"), false)
		}
		c.plan.Regions = append(c.plan.Regions, r)
		c.plan.regionIndex.add(r.ID, len(c.plan.Regions)-1, c.plan.regionID)
	}
	if c.err != nil {
		return
	}
	for i, name := range parents {
		if name == "" {
			continue
		}
		j := c.plan.lookupRegion(name)
		if j < 0 {
			c.fail(path("/regions/"+strconv.Itoa(i)+"/parent"), "names a region that is not declared")
			return
		}
		c.plan.Regions[i].Parent = j
	}
	// Walk each parent chain once: a region met again on the current walk
	// closes a cycle; one finished on an earlier walk is known to end.
	const unvisited, walking, done = 0, 1, 2
	state := make([]uint8, len(c.plan.Regions))
	for i := range c.plan.Regions {
		var chain []int
		r := i
		for r >= 0 && state[r] == unvisited {
			state[r] = walking
			chain = append(chain, r)
			r = c.plan.Regions[r].Parent
		}
		if r >= 0 && state[r] == walking {
			c.fail(path("/regions/"+strconv.Itoa(r)+"/parent"), "region parents form a cycle")
			return
		}
		for _, p := range chain {
			state[p] = done
		}
	}
}

func (c *compiler) regionRef(v *jsonval.Value, at loc) int {
	name := c.str(v, at, maxNameChars)
	if c.err != nil {
		return -1
	}
	i := c.plan.lookupRegion(name)
	if i < 0 {
		c.fail(at, "names a region that is not declared")
	}
	return i
}

func (c *compiler) collections(v *jsonval.Value) {
	if v == nil {
		return
	}
	collections := path("/collections")
	if v.Kind != jsonval.Array {
		c.fail(collections, "must be an array")
		return
	}
	c.plan.Collections = room(c.block.collections[:], len(v.Items))
	for i, it := range v.Items {
		at := collections.item(i)
		if !c.commented(it, at, []string{"region", "from", "id", "fields"}) {
			return
		}
		col := Collection{
			Region: c.regionRef(it.Get("region"), at.in("region")),
			From:   c.ptr(it.Get("from"), at.in("from")),
			ID:     c.ptr(it.Get("id"), at.in("id")),
		}
		fs, fields := it.Get("fields"), at.in("fields")
		if !c.object(fs, fields, nil, fs.Keys...) || !c.annotated(fs, fields, Comment) {
			return
		}
		col.Fields = make([]Field, 0, len(fs.Keys))
		for j, name := range fs.Keys {
			if name == Comment {
				continue
			}
			fat := fields.in(name)
			c.name(name, fat, maxNameChars)
			f := fs.Vals[j]
			if !c.commented(f, fat, []string{"from"}, "maxChars", "expose", "content") {
				return
			}
			fld := Field{Name: name, From: c.ptr(f.Get("from"), fat.in("from"))}
			if m := f.Get("maxChars"); m != nil {
				n, ok := wholeNumber(m)
				if !ok || n < 1 {
					c.fail(fat.in("maxChars"), "must be a positive integer")
				} else if hm := HardMax().MaxFieldChars; n > float64(hm) {
					c.fail(fat.in("maxChars"), "exceeds the implementation's maximum of "+strconv.Itoa(hm))
				} else {
					fld.MaxChars = int(n)
				}
			}
			if e := f.Get("expose"); e != nil {
				switch c.str(e, fat.in("expose"), maxNameChars) {
				case "plain":
				case "mask":
					fld.Expose = Mask
				case "alias":
					fld.Expose = Alias
				case "placeholder":
					fld.Expose = Placeholder
				default:
					c.fail(fat.in("expose"), "must be one of plain, mask, alias, placeholder")
				}
			}
			if ct := f.Get("content"); ct != nil {
				switch c.str(ct, fat.in("content"), maxNameChars) {
				case "user":
					fld.UserContent = true
				case "app":
				default:
					c.fail(fat.in("content"), "must be \"user\" or \"app\"")
				}
			}
			col.Fields = append(col.Fields, fld)
		}
		c.plan.Collections = append(c.plan.Collections, col)
	}
}

func (c *compiler) feedback(v *jsonval.Value) {
	if !c.commented(v, path("/feedback"), []string{"from", "text"}, "level", "source") {
		return
	}
	f := &c.block.feedback
	*f = Feedback{From: c.ptr(v.Get("from"), path("/feedback/from")), Text: c.ptr(v.Get("text"), path("/feedback/text"))}
	if l := v.Get("level"); l != nil {
		f.Level = c.ptr(l, path("/feedback/level"))
	}
	if s := v.Get("source"); s != nil {
		f.Source = c.ptr(s, path("/feedback/source"))
	}
	c.plan.Feedback = f
}

func (c *compiler) capabilities(v *jsonval.Value) {
	if v == nil {
		return
	}
	capabilities := path("/capabilities")
	if v.Kind != jsonval.Array {
		c.fail(capabilities, "must be an array")
		return
	}
	c.plan.Capabilities = make([]Capability, 0, len(v.Items))
	c.plan.capabilityIndex = make(nameIndex, 0, len(v.Items))
	for i, it := range v.Items {
		at := capabilities.item(i)
		if !c.commented(it, at, []string{"name", "description", "scope", "region"}, "input", "unavailable") {
			return
		}
		cp := Capability{
			Name:        c.str(it.Get("name"), at.in("name"), maxNameChars),
			Description: c.str(it.Get("description"), at.in("description"), maxTextChars),
			Region:      c.regionRef(it.Get("region"), at.in("region")),
		}
		if c.err == nil && c.plan.CapabilityIndex(cp.Name) >= 0 {
			c.fail(at.in("name"), "duplicate capability name")
			return
		}
		switch c.str(it.Get("scope"), at.in("scope"), maxNameChars) {
		case "record":
			cp.Record = true
		case "page":
		default:
			c.fail(at.in("scope"), "must be \"page\" or \"record\"")
		}
		cp.Input = defaultInput
		if in := it.Get("input"); in != nil {
			input := at.in("input")
			c.schema(in, input, 0)
			if in.Kind == jsonval.Object && in.Get("type") == nil {
				c.fail(input.in("type"), "is required and must be \"object\"")
			} else if t := in.Get("type"); in.Kind == jsonval.Object && (t.Kind != jsonval.String || t.S != "object") {
				c.fail(input.in("type"), "must be \"object\"")
			}
			cp.Input = in
		}
		cp.InputJSON = c.encode(cp.Input)
		c.tokenSlots(&cp, at)
		if u := it.Get("unavailable"); u != nil {
			if u.Kind != jsonval.Array {
				c.fail(at.in("unavailable"), "must be an array")
				return
			}
			unavailable := at.in("unavailable")
			cp.Unavailable = c.newRules(len(u.Items))
			for j, r := range u.Items {
				rat := unavailable.item(j)
				if !c.commented(r, rat, []string{"when", "reason"}) {
					return
				}
				cp.Unavailable = append(cp.Unavailable, Rule{
					When:   c.cond(r.Get("when"), rat.in("when"), cp.Record),
					Reason: c.str(r.Get("reason"), rat.in("reason"), maxTextChars),
				})
			}
		}
		c.plan.Capabilities = append(c.plan.Capabilities, cp)
		c.plan.capabilityIndex.add(cp.Name, len(c.plan.Capabilities)-1, c.plan.capabilityName)
	}
}

// defaultInput is the input schema of a capability that declares none: an
// empty object and nothing else. It is shared by every such capability and
// never changed (input schemas are only read).
var defaultInput = &jsonval.Value{Kind: jsonval.Object,
	Keys: []string{"type", "properties", "additionalProperties"},
	Vals: []*jsonval.Value{{Kind: jsonval.String, S: "object"}, {Kind: jsonval.Object}, {Kind: jsonval.Bool}}}

// cond compiles a condition; field conditions are allowed only where a
// record is being judged.
func (c *compiler) cond(v *jsonval.Value, at loc, record bool) *Cond {
	if v == nil || v.Kind != jsonval.Object || len(v.Keys) == 0 {
		c.fail(at, "must be a condition object")
		return nil
	}
	if len(v.Keys) == 1 {
		k := v.Keys[0]
		switch k {
		case "all", "any":
			arr := v.Vals[0]
			if arr.Kind != jsonval.Array || len(arr.Items) == 0 {
				c.fail(at.in(k), "must be a non-empty array of conditions")
				return nil
			}
			op, _ := opNamed(k)
			out, kat := c.newCond(Cond{Op: op, Sub: make([]*Cond, 0, len(arr.Items))}), at.in(k)
			for i, s := range arr.Items {
				out.Sub = append(out.Sub, c.cond(s, kat.item(i), record))
			}
			return out
		case "not":
			return c.newCond(Cond{Op: OpNot, Sub: []*Cond{c.cond(v.Vals[0], at.in(k), record)}})
		}
	}
	out := c.newCond(Cond{})
	haveRef, haveOp := false, false
	for i, k := range v.Keys {
		kat := at.in(k)
		switch k {
		case "path", "field":
			if haveRef {
				c.fail(kat, "a condition reads exactly one of path or field")
				return nil
			}
			if k == "field" && !record {
				c.fail(kat, "field conditions are only allowed in record-scope rules")
				return nil
			}
			haveRef = true
			out.Field = k == "field"
			out.Ptr = c.ptr(v.Vals[i], kat)
			continue
		}
		op, ok := opNamed(k)
		if !ok || op >= OpAll {
			c.fail(kat, "unknown condition operator")
			return nil
		}
		if haveOp {
			c.fail(kat, "a condition has exactly one operator")
			return nil
		}
		haveOp = true
		out.Op, out.Arg = op, v.Vals[i]
		switch op {
		case OpIn, OpNotIn:
			if out.Arg.Kind != jsonval.Array {
				c.fail(kat, "must be an array of values")
			}
		case OpExists:
			if out.Arg.Kind != jsonval.Bool {
				c.fail(kat, "must be true or false")
			}
		case OpLt, OpLte, OpGt, OpGte:
			if out.Arg.Kind != jsonval.Number && out.Arg.Kind != jsonval.String {
				c.fail(kat, "must be a number or a string")
			}
		}
	}
	if !haveRef {
		c.fail(at, "a condition needs path or field")
		return nil
	}
	if !haveOp {
		c.fail(at, "a condition needs an operator")
		return nil
	}
	return out
}
