// Package manifest compiles a Pinhole manifest (format 1) into a Plan:
// everything the projection needs, checked once, so that no describe has to
// look at the manifest text again. The Plan holds the declared regions,
// collections, fields with their exposure modes, state, feedback and
// capabilities, the limits in force, and Reads, every store path the bridge
// may send.
//
// Compiled conditions (Cond) and capability input schemas stay with the
// Plan and judge values themselves (Cond.Eval, Capability.CheckInput), the
// way a compiled regexp matches: what the compiler admitted and what is
// evaluated are one grammar, kept in one place. A new exposure mode is
// declared here (Expose) and applied in package expose.
//
// Every fault is an invalid_manifest *wire.Error whose Param is the JSON
// Pointer of the offending place in the manifest. A Plan is read-only once
// compiled: project, session and the lint share it.
package manifest

import (
	"sync"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// Format is the manifest format this package reads.
const Format = 1

// Defaults returns the limits in force when a manifest sets none.
func Defaults() wire.Limits {
	return wire.Limits{
		DefaultLimit:       8,
		MaxLimit:           50,
		MaxRecordSelection: 20,
		MaxRecordIds:       1000,
		MaxFieldChars:      512,
		MaxFeedback:        20,
		MaxUnavailable:     20,
		MaxResponseBytes:   65536,
	}
}

// HardMax returns the implementation's declared maximums: a manifest may
// lower a limit or raise it up to these, never beyond. They are a function
// of the build, not a setting: nothing in a process can raise them.
func HardMax() wire.Limits {
	return wire.Limits{
		DefaultLimit:       200,
		MaxLimit:           200,
		MaxRecordSelection: 20,
		MaxRecordIds:       10000,
		MaxFieldChars:      8192,
		MaxFeedback:        200,
		MaxUnavailable:     500,
		MaxResponseBytes:   1 << 20,
	}
}

// MinResponseBytes is the smallest maxResponseBytes a manifest may set.
const MinResponseBytes = 4096

// Expose says how a field's value reaches the agent.
type Expose uint8

// The exposure modes a field may declare (its "expose" key).
const (
	Plain Expose = iota
	Mask
	Alias
	Placeholder
)

// String returns the manifest spelling of e.
func (e Expose) String() string {
	return [...]string{"plain", "mask", "alias", "placeholder"}[e]
}

// Plan is a compiled manifest.
type Plan struct {
	Limits       wire.Limits
	Page         *Page
	Regions      []Region
	Collections  []Collection
	State        []StateKey
	Feedback     *Feedback
	Capabilities []Capability
	RedescribeOn []jsonval.Pointer
	SessionScope jsonval.Pointer // nil when not declared

	// Reads is what the bridge may send: built from every declared path.
	// The prune package keeps states and patches to it.
	Reads wire.Reads

	regionIndex, capabilityIndex nameIndex
	classified                   sync.Once   // ClassifyNames
	tree                         *prune.Tree // the tree Reads was listed from
}

// ClassifyNames sets the SecretName of every field and state key, the first
// time it is called: at the first projection rather than at load, where
// every function the classifier runs would be compiled and counted against
// V8's tier-up budgets (BENCHMARKS.md, "Fewer allocations at the load").
func (p *Plan) ClassifyNames() {
	p.classified.Do(func() {
		for ci := range p.Collections {
			for fi := range p.Collections[ci].Fields {
				f := &p.Collections[ci].Fields[fi]
				f.SecretName = expose.SecretName(f.Name)
			}
		}
		for i := range p.State {
			p.State[i].SecretName = expose.SecretName(p.State[i].Name)
		}
	})
}

// ReadTree returns the tree of the plan's reads: the tree prune.FromReads
// builds from Reads, without building it again. It is shared and must not
// be changed.
func (p *Plan) ReadTree() *prune.Tree { return p.tree }

// Page declares where the page identity lives.
type Page struct {
	Route, Title jsonval.Pointer // nil when not declared
	Params       jsonval.Pointer
	Allow        []string
}

// Region is a part of the page; Parent is an index into Plan.Regions or -1.
type Region struct {
	ID          string
	Description string
	Parent      int
	ActiveWhen  *Cond
}

// Collection is an array of records in the store.
type Collection struct {
	Region int
	From   jsonval.Pointer
	ID     jsonval.Pointer
	Fields []Field
}

// Field is one projected field of a record.
type Field struct {
	Name        string
	From        jsonval.Pointer
	MaxChars    int // 0: limits.maxFieldChars
	Expose      Expose
	UserContent bool
	// SecretName: the name says its value may be a secret, so a value is
	// also judged as given under it (expose.SecretName). Set by
	// Plan.ClassifyNames.
	SecretName bool
}

// StateKey is one declared state value.
type StateKey struct {
	Name       string
	From       jsonval.Pointer
	SecretName bool // as Field's
}

// Feedback declares where feedback items live and how to read one.
type Feedback struct {
	From                jsonval.Pointer
	Text, Level, Source jsonval.Pointer // relative to one item
}

// Capability is one action of the application.
type Capability struct {
	Name        string
	Description string
	Record      bool // scope "record"; false: "page"
	Region      int
	Input       *jsonval.Value
	InputJSON   []byte // canonical encoding of Input
	// Slots are the input properties that take tokens (tokens.go).
	Slots       []TokenSlot
	Unavailable []Rule
}

// Rule makes a capability unavailable, with the application's reason, when
// its condition holds.
type Rule struct {
	When   *Cond
	Reason string
}

// Scope returns the manifest spelling of the capability's scope.
func (c *Capability) Scope() string {
	if c.Record {
		return "record"
	}
	return "page"
}

// lookupRegion returns the index of the region named id, or -1.
func (p *Plan) lookupRegion(id string) int {
	return p.regionIndex.lookup(id, p.regionID)
}

func (p *Plan) regionID(i int32) string { return p.Regions[i].ID }

// CapabilityIndex returns the index of the capability named name, or -1.
func (p *Plan) CapabilityIndex(name string) int {
	return p.capabilityIndex.lookup(name, p.capabilityName)
}

func (p *Plan) capabilityName(i int32) string { return p.Capabilities[i].Name }

// nameIndex finds a region or capability by name: the positions of the
// names in their list, sorted by name, searched by halves. A map would
// cost a dozen allocations at every load, each counting against V8's
// tier-up budget of the Go allocator (BENCHMARKS.md, "Tier-up budgets at
// start-up"); this is one.
type nameIndex []int32

// search returns where name is or would go in x, and whether it is there;
// nameOf gives the name at a position of the list.
func (x nameIndex) search(name string, nameOf func(int32) string) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if nameOf(x[m]) < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(x) && nameOf(x[lo]) == name
}

// lookup returns the position of name in the list, or -1.
func (x nameIndex) lookup(name string, nameOf func(int32) string) int {
	if at, ok := x.search(name, nameOf); ok {
		return int(x[at])
	}
	return -1
}

// add records that name is at position pos of the list; the list must
// already hold it there. A name already in x is not added again.
func (x *nameIndex) add(name string, pos int, nameOf func(int32) string) {
	at, ok := x.search(name, nameOf)
	if ok {
		return
	}
	*x = append(*x, 0)
	copy((*x)[at+1:], (*x)[at:])
	(*x)[at] = int32(pos)
}

// Within reports whether region r is region anc or one of its descendants.
func (p *Plan) Within(r, anc int) bool {
	for ; r >= 0; r = p.Regions[r].Parent {
		if r == anc {
			return true
		}
	}
	return false
}
