// Package project turns a compiled manifest and a declared state into
// snapshots, and snapshots into bounded, least-exposure answers: describe
// (records in windows, ids, state, feedback, unavailable actions) and after
// (what changed between two snapshots), each cut to its limits and to
// maxResponseBytes. It reads requests already checked by package session
// and values through package expose.
//
// A Snapshot is computed once per observed state: which regions are active,
// which records are referenceable and in what order. Everything a describe
// needs that does not depend on the request (page, regions, state, feedback,
// capabilities) is projected once, on first use, and reused.
package project

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// MaxIDChars bounds a record id.
const MaxIDChars = 128

// Rec is one referenceable record.
type Rec struct {
	ID    string
	Coll  int // index into Plan.Collections
	Index int // position in the collection's array (see Snapshot.Item)
}

// Item returns the declared part of the store item of record r. Records
// hold positions rather than items so that snapshots of a patched state
// can share their record list and id index.
func (s *Snapshot) Item(r *Rec) *jsonval.Value {
	return s.arrays[r.Coll].Items[r.Index]
}

// Snapshot is the projectable view of one declared state. It is immutable
// once built: the session keeps recent ones for prepare and after, and
// reads Root, Records and ByID to check an agent's request against the
// snapshot it saw; nothing outside this package writes them.
type Snapshot struct {
	Plan   *manifest.Plan
	Root   *jsonval.Value
	Active []bool // per region

	// Records are the referenceable records of active regions, in view
	// order; ByID indexes them.
	Records []Rec
	ByID    map[string]int
	// Total counts every item of active collections, referenceable or not.
	Total int
	// Skipped counts items without a valid, unique id; Duplicates those of
	// them whose id another item shares (every such item is skipped).
	Skipped, Duplicates int
	// Cut counts the declared values of the view (fields of active
	// collections' items, state keys) that are cut markers (see
	// prune.Cut); a whole collection cut is in CutRegions instead.
	Cut int
	// CutRegions marks, per region, an active collection of it that is a
	// cut marker as a whole: its records could not be listed.
	CutRegions []bool
	// Warnings name declared paths whose value has the wrong shape.
	Warnings []string
	// Scope is the keyer's scope (expose.Keyer.Scope) the snapshot is
	// projected under, set by the session once the scope is known. Across
	// two scopes every alias and placeholder token differs, so an after
	// between them lists those fields as changed whatever their values:
	// comparing the values would tell which of one tenant's hidden values
	// equal another's.
	Scope int
	// Withheld is set by the session when its scope could not be read
	// while this snapshot was current: no context of it was given, so an
	// after or prepare since it is answered as for a snapshot not held.
	Withheld bool

	base *base // request-independent parts, projected on first describe

	// Per collection: the array and the checked id of each item ("" when
	// invalid), for Build to reuse.
	arrays  []*jsonval.Value
	itemIDs [][]string
	// Per collection: how many fields of each item are cut markers.
	itemCuts [][]int32
}

// regionCut reports whether region i's collection is cut whole.
func (s *Snapshot) regionCut(i int) bool { return s.CutRegions != nil && s.CutRegions[i] }

// Build computes the snapshot of a declared state (see Plan.Prune). prev,
// when not nil, is an earlier snapshot of the same plan: items it shares with
// root (a patched state shares every node it did not touch) reuse its id
// checks, and when the referenceable ids are the same as prev's, so is the
// id index. A one-record change then costs a pass over pointers, not a
// re-validation and re-indexing of every id.
func Build(plan *manifest.Plan, root *jsonval.Value, prev *Snapshot) *Snapshot {
	plan.ClassifyNames()
	if root == nil {
		root = jsonval.NewObject()
	}
	s := &Snapshot{Plan: plan, Root: root, Active: activeRegions(plan, root), Warnings: []string{},
		itemIDs: make([][]string, len(plan.Collections)), arrays: make([]*jsonval.Value, len(plan.Collections)),
		itemCuts: make([][]int32, len(plan.Collections))}
	if prev != nil && prev.Plan != plan {
		prev = nil
	}
	// First pass: the checked id of every item of every active collection.
	for ci := range plan.Collections {
		col := &plan.Collections[ci]
		if !s.Active[col.Region] {
			continue
		}
		arr := prune.Lookup(root, col.From)
		if arr == nil {
			// Absent, null or under a scalar (pruning keeps none of them):
			// a store of another shape than the manifest declares, or one
			// not filled yet. Said, so that an empty context is not taken
			// for an empty store.
			s.Warnings = append(s.Warnings, col.From.String()+": nothing there (absent, null, or inside a value that is not an object); the collection is treated as empty")
			continue
		}
		if prune.IsCut(arr) {
			// The bridge cut the whole collection (an array too long to
			// read). The marker's reason is not repeated: a store value of
			// that shape is read as a marker too.
			s.Warnings = append(s.Warnings, col.From.String()+": cut; the collection is treated as empty")
			if s.CutRegions == nil {
				s.CutRegions = make([]bool, len(plan.Regions))
			}
			s.CutRegions[col.Region] = true
			continue
		}
		if arr.Kind != jsonval.Array {
			s.Warnings = append(s.Warnings, col.From.String()+": expected an array; the collection is treated as empty")
			continue
		}
		var prevArr *jsonval.Value
		var prevIDs []string
		var prevCuts []int32
		if prev != nil {
			prevArr, prevIDs, prevCuts = prev.arrays[ci], prev.itemIDs[ci], prev.itemCuts[ci]
		}
		s.arrays[ci] = arr
		// Share the previous id and cut lists until an item differs.
		ids, shared := prevIDs, len(prevIDs) == len(arr.Items)
		if !shared {
			ids = make([]string, len(arr.Items))
		}
		cuts, sharedCuts := prevCuts, len(prevCuts) == len(arr.Items)
		if !sharedCuts {
			cuts = make([]int32, len(arr.Items))
		}
		cutSum := 0
		for i, item := range arr.Items {
			id, cut := "", int32(0)
			if prevArr != nil && i < len(prevArr.Items) && prevArr.Items[i] == item {
				id, cut = prevIDs[i], prevCuts[i]
			} else {
				if v, ok := RecordID(col.ID.Resolve(item)); ok {
					id = v
				}
				for f := range col.Fields {
					if prune.IsCut(prune.Lookup(item, col.Fields[f].From)) {
						cut++
					}
				}
			}
			cutSum += int(cut)
			if sharedCuts && cuts[i] != cut {
				cuts, sharedCuts = append([]int32(nil), cuts...), false // copy on the first difference
			}
			if !sharedCuts {
				cuts[i] = cut
			}
			if shared {
				if ids[i] == id {
					continue
				}
				ids, shared = append([]string(nil), ids...), false
			}
			ids[i] = id
		}
		s.itemIDs[ci] = ids
		s.itemCuts[ci] = cuts
		s.Total += len(ids)
		s.Cut += cutSum
	}
	if prev != nil && sameItemIDs(s.itemIDs, prev.itemIDs) {
		// Same records in the same order: share the list and the index.
		s.Records, s.ByID, s.Skipped, s.Duplicates = prev.Records, prev.ByID, prev.Skipped, prev.Duplicates
	} else {
		s.index()
	}
	for _, k := range plan.State {
		if prune.IsCut(prune.Lookup(root, k.From)) {
			s.Cut++
		}
	}
	if f := plan.Feedback; f != nil && prune.IsCut(prune.Lookup(root, f.From)) {
		s.Warnings = append(s.Warnings, f.From.String()+": cut; the feedback is treated as empty")
	}
	if n := s.Skipped - s.Duplicates; n > 0 {
		s.Warnings = append(s.Warnings, strconv.Itoa(n)+" records have no valid id and are not referenceable")
	}
	if s.Duplicates > 0 {
		s.Warnings = append(s.Warnings, strconv.Itoa(s.Duplicates)+" records share their id with another record; none of them is referenceable")
	}
	if s.Cut > 0 {
		s.Warnings = append(s.Warnings, strconv.Itoa(s.Cut)+" declared values could not be kept (nested too deep, cyclic or too long) and are shown as cut")
	}
	return s
}

// index lists the referenceable records and indexes them by id. An id that
// more than one item carries names none of them: no item can take over
// another's id, whichever comes first.
func (s *Snapshot) index() {
	carriers := make(map[string]int, s.Total) // id → items carrying it
	for _, ids := range s.itemIDs {
		for _, id := range ids {
			if id != "" {
				carriers[id]++
			}
		}
	}
	s.ByID = make(map[string]int, len(carriers))
	for ci, ids := range s.itemIDs {
		for i, id := range ids {
			switch {
			case id == "":
				s.Skipped++
			case carriers[id] > 1:
				s.Skipped++
				s.Duplicates++
			default:
				s.ByID[id] = len(s.Records)
				s.Records = append(s.Records, Rec{ID: id, Coll: ci, Index: i})
			}
		}
	}
}

func sameItemIDs(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || (a[i] == nil) != (b[i] == nil) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

// RecordID returns the id of a record: a string, or an integer rendered as
// a string, of 1 to MaxIDChars characters without control or invisible
// characters, that the credential safety net does not catch.
func RecordID(v *jsonval.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	var id string
	switch {
	case v.Kind == jsonval.String:
		id = v.S
	case v.IsInteger():
		id = v.S
	default:
		return "", false
	}
	n := 0
	for _, r := range id {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "", false
		}
		if n++; n > MaxIDChars {
			return "", false
		}
	}
	if n == 0 || expose.Clean(id) != id || expose.IsCredential(id) {
		return "", false
	}
	return id, true
}

func activeRegions(plan *manifest.Plan, root *jsonval.Value) []bool {
	const unknown, no, yes = 0, 1, 2
	memo := make([]uint8, len(plan.Regions))
	var eval func(i int) bool
	eval = func(i int) bool {
		if memo[i] == unknown {
			r := &plan.Regions[i]
			ok := (r.Parent < 0 || eval(r.Parent)) && (r.ActiveWhen == nil || r.ActiveWhen.Eval(root, nil))
			memo[i] = no
			if ok {
				memo[i] = yes
			}
		}
		return memo[i] == yes
	}
	out := make([]bool, len(plan.Regions))
	for i := range out {
		out[i] = eval(i)
	}
	return out
}

// CapabilityActive reports whether capability i is in an active region.
func (s *Snapshot) CapabilityActive(i int) bool {
	return s.Active[s.Plan.Capabilities[i].Region]
}

// Unavailable returns the reason capability ci cannot run now for the record
// (nil for page scope), or "" when it can.
func (s *Snapshot) Unavailable(ci int, rec *Rec) string {
	cp := &s.Plan.Capabilities[ci]
	var item *jsonval.Value
	if rec != nil {
		item = s.Item(rec)
	}
	for _, r := range cp.Unavailable {
		if r.When.Eval(s.Root, item) {
			return r.Reason
		}
	}
	return ""
}

// limits is a shorthand used throughout the package.
func (s *Snapshot) limits() *wire.Limits { return &s.Plan.Limits }
