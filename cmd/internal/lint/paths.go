package lint

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/project"
)

// pathAdvice ends a finding about a declared path: what it costs.
const pathAdvice = "; check the path against the store (the agent would see nothing there, and no error says so)"

// Paths lists, in manifest order, the declared paths that a sample state
// has no place for: a typo in a from, or a store of another shape than the
// manifest declares. Only the collections of regions active in the sample
// are judged (another region's may well be absent), and a path the sample
// cannot judge (under a null, or past the end of an array) is not a
// finding: the sample may just not hold that data today.
func Paths(plan *manifest.Plan, state *jsonval.Value) []Finding {
	if state == nil {
		return nil
	}
	var out []Finding
	if p := plan.Page; p != nil {
		for _, d := range []struct {
			at string
			p  jsonval.Pointer
		}{{"/page/route", p.Route}, {"/page/title", p.Title}, {"/page/params/from", p.Params}} {
			if d.p != nil && misses(state, d.p) {
				out = append(out, Finding{d.at, "the sample state has nothing at " + d.p.String() + pathAdvice})
			}
		}
	}
	active := project.Build(plan, plan.ReadTree().State(state), nil).Active
	for ci, col := range plan.Collections {
		if !active[col.Region] {
			continue
		}
		at := "/collections/" + strconv.Itoa(ci)
		v := col.From.Resolve(state)
		if misses(state, col.From) || v != nil && v.Kind != jsonval.Array && v.Kind != jsonval.Null {
			out = append(out, Finding{at + "/from", "the sample state has no array at " + col.From.String() + pathAdvice})
			continue
		}
		if v == nil || v.Kind != jsonval.Array || len(v.Items) == 0 {
			continue
		}
		if missesInAll(v.Items, col.ID) {
			out = append(out, Finding{at + "/id", "no record of the sample state has " + col.ID.String() +
				"; check the path against the store (no record would be referenceable)"})
		}
		for _, f := range col.Fields {
			if missesInAll(v.Items, f.From) {
				out = append(out, Finding{at + "/fields" + jsonval.Pointer{f.Name}.String() + "/from",
					"no record of the sample state has " + f.From.String() + pathAdvice})
			}
		}
	}
	for _, k := range plan.State {
		if misses(state, k.From) {
			out = append(out, Finding{"/state" + jsonval.Pointer{k.Name}.String(), "the sample state has nothing at " + k.From.String() + pathAdvice})
		}
	}
	if f := plan.Feedback; f != nil && misses(state, f.From) {
		out = append(out, Finding{"/feedback/from", "the sample state has nothing at " + f.From.String() + pathAdvice})
	}
	// The session scope is judged strictly: the module withholds the
	// context when the scope is absent, also under a null (null itself is a
	// scope: no tenant).
	if sc := plan.SessionScope; sc != nil && sc.Resolve(state) == nil {
		out = append(out, Finding{"/sessionScope", "the sample state has nothing at " + sc.String() +
			"; check the path against the store (while the session scope is absent the module gives no context at all)"})
	}
	return out
}

// misses reports whether v has no place for p: on the way down, an object
// without the member, or a value that is neither an object nor an array
// where p goes deeper. A null, or an index past the end of an array, does
// not count: the sample does not say whether the store would hold more.
func misses(v *jsonval.Value, p jsonval.Pointer) bool {
	for _, tok := range p {
		switch {
		case v == nil || v.Kind == jsonval.Null:
			return false
		case v.Kind == jsonval.Object:
			if v = v.Get(tok); v == nil {
				return true
			}
		case v.Kind == jsonval.Array:
			i, ok := jsonval.ArrayIndex(tok)
			if !ok {
				return true
			}
			if i >= len(v.Items) {
				return false
			}
			v = v.Items[i]
		default:
			return true
		}
	}
	return false
}

// missesInAll reports whether every item misses p.
func missesInAll(items []*jsonval.Value, p jsonval.Pointer) bool {
	for _, it := range items {
		if !misses(it, p) {
			return false
		}
	}
	return true
}
