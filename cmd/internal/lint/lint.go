// Package lint reports risky declarations in a Pinhole manifest: values
// exposed plain whose names or sample values look like credentials, e-mail
// addresses, phone or card numbers, regions or capabilities an agent
// cannot understand for lack of a description, capabilities WebMCP cannot
// take as tools for their names, and token slots that are missing (Plan);
// and, with a sample state, declared paths the state has no place for
// (Paths). The pinhole CLI and the
// Worker share it. Findings name manifest places, never values.
package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

// minCapabilityDescription is the shortest capability description lint
// accepts: agents choose actions by their descriptions.
const minCapabilityDescription = 8

// Finding is one risky declaration: the JSON Pointer of the place in the
// manifest (At) and what is wrong there. Messages never quote state values.
type Finding struct{ At, Message string }

// Plan lists the risky declarations of plan, in manifest order; state, a
// sample of the store, may be nil.
func Plan(plan *manifest.Plan, state *jsonval.Value) []Finding {
	var out []Finding
	for i, r := range plan.Regions {
		if strings.TrimSpace(r.Description) == "" {
			out = append(out, Finding{"/regions/" + strconv.Itoa(i),
				"region " + strconv.Quote(r.ID) + " has no description; the agent cannot tell what it holds"})
		}
	}
	for ci, col := range plan.Collections {
		var items []*jsonval.Value
		if v := col.From.Resolve(state); v != nil && v.Kind == jsonval.Array {
			items = v.Items
		}
		for _, f := range col.Fields {
			if f.Expose != manifest.Plain {
				continue
			}
			at := "/collections/" + strconv.Itoa(ci) + "/fields" + jsonval.Pointer{f.Name}.String()
			out = append(out, nameFindings(at, "field", f.Name, f.From)...)
			if state == nil {
				continue
			}
			var counts [numKinds]int
			for _, it := range items {
				for k, hit := range classify(f.From.Resolve(it)) {
					if hit {
						counts[k]++
					}
				}
			}
			for k, n := range counts {
				if n > 0 {
					out = append(out, Finding{at, fmt.Sprintf("field is exposed plain but its values in the state look like %s (%d of %d records)%s",
						kinds[k].plural, n, len(items), advice)})
				}
			}
		}
	}
	for _, k := range plan.State {
		at := "/state" + jsonval.Pointer{k.Name}.String()
		out = append(out, nameFindings(at, "state key", k.Name, k.From)...)
		if state == nil {
			continue
		}
		for kind, hit := range classify(k.From.Resolve(state)) {
			if hit {
				out = append(out, Finding{at, "its value in the state looks like " + kinds[kind].one +
					"; state keys are always exposed plain, declare it as a masked field or leave it out"})
			}
		}
	}
	for i, c := range plan.Capabilities {
		if msg := webMCPNameFault(c.Name); msg != "" {
			out = append(out, Finding{"/capabilities/" + strconv.Itoa(i) + "/name", "capability " + strconv.Quote(c.Name) + " " + msg})
		}
		if len([]rune(strings.TrimSpace(c.Description))) < minCapabilityDescription {
			out = append(out, Finding{"/capabilities/" + strconv.Itoa(i) + "/description",
				"capability " + strconv.Quote(c.Name) + " has a description shorter than " +
					strconv.Itoa(minCapabilityDescription) + " characters; agents choose actions by their descriptions"})
		}
	}
	return append(out, tokenFindings(plan)...)
}

const advice = "; declare expose mask, alias or placeholder, or leave it out"

// describeTool is the name the bridge gives its WebMCP describe tool by
// default (js/src/webmcp.js).
const describeTool = "describe_context"

// webMCPNameFault says why a capability named name cannot be offered as a
// WebMCP tool, or "" if it can. WebMCP's registerTool refuses a name that is
// not 1 to 128 ASCII letters, digits, "_", "-" or "." (the WebMCP draft's
// registerTool steps), and the bridge keeps its describe tool's name.
func webMCPNameFault(name string) string {
	if name == describeTool {
		return "has the name of the bridge's WebMCP describe tool; it is offered as a WebMCP tool only under another describeToolName"
	}
	ok := len(name) <= 128
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = isAlnum(c) || c == '_' || c == '-' || c == '.'
	}
	if !ok {
		return "is not a WebMCP tool name (ASCII letters, digits, _, - and ., 1 to 128 of them); the bridge cannot offer it as a WebMCP tool"
	}
	return ""
}

// nameFindings checks the declared name and the last token of the source
// path ("contact" from "/customer/email" is still an e-mail).
func nameFindings(at, what, name string, from jsonval.Pointer) []Finding {
	var hits [numKinds]bool
	for k, hit := range nameKinds(name) {
		hits[k] = hits[k] || hit
	}
	if len(from) > 0 {
		for k, hit := range nameKinds(from[len(from)-1]) {
			hits[k] = hits[k] || hit
		}
	}
	var out []Finding
	for k, hit := range hits {
		if !hit {
			continue
		}
		msg := what + " is exposed plain but is named like " + kinds[k].one
		if what == "field" {
			msg += advice
		} else {
			msg += "; state keys are always exposed plain, declare it as a masked field or leave it out"
		}
		out = append(out, Finding{at, msg})
	}
	return out
}
