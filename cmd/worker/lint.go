package main

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/pinholectx/pinhole/wasm/jsonval"
	"github.com/pinholectx/pinhole/wasm/manifest"
	"github.com/pinholectx/pinhole/wasm/wire"
)

// This is a minimal lint: the core's manifest validation plus one exposure
// heuristic. It belongs in a shared package with the CLI's detectors.

// sensitiveName matches field names and pointers that usually hold personal
// or secret data.
var sensitiveName = regexp.MustCompile(`(?i)(e-?mail|phone|mobile|card|iban|ssn|token|passw|secret|api[-_]?key|credential)`)

// finding is one lint result. Messages name manifest paths, never values.
type finding struct {
	level, code, message, param string
}

// lintManifest reports invalid_manifest (an error) when the core rejects m,
// and a warning for every plainly exposed collection field or state member
// whose name or source pointer looks sensitive.
func lintManifest(m *jsonval.Value) []finding {
	var out []finding
	if _, err := manifest.Compile(m); err != nil {
		e := err.(*wire.Error)
		out = append(out, finding{"error", e.Code, e.Message, e.Param})
	}
	for i, col := range items(m.Get("collections")) {
		fs := col.Get("fields")
		if fs == nil || fs.Kind != jsonval.Object {
			continue
		}
		for j, name := range fs.Keys {
			f := fs.Vals[j]
			from := f.Get("from")
			if e := f.Get("expose"); e != nil && !(e.Kind == jsonval.String && e.S == "plain") {
				continue
			}
			if sensitiveName.MatchString(name) || (from != nil && from.Kind == jsonval.String && sensitiveName.MatchString(from.S)) {
				at := "/collections/" + strconv.Itoa(i) + "/fields" + jsonval.Pointer{name}.String()
				out = append(out, finding{"warning", "plain_sensitive_field", at + ": looks like personal or secret data but is exposed plain; use expose mask, alias or placeholder, or do not declare it", at})
			}
		}
	}
	if st := m.Get("state"); st != nil && st.Kind == jsonval.Object {
		for j, name := range st.Keys {
			from := st.Vals[j]
			if sensitiveName.MatchString(name) || (from.Kind == jsonval.String && sensitiveName.MatchString(from.S)) {
				at := "/state" + jsonval.Pointer{name}.String()
				out = append(out, finding{"warning", "plain_sensitive_field", at + ": looks like personal or secret data and state members are always exposed plain; do not declare it", at})
			}
		}
	}
	return out
}

// items returns the items of an array value, or nil for anything else.
func items(v *jsonval.Value) []*jsonval.Value {
	if v == nil || v.Kind != jsonval.Array {
		return nil
	}
	return v.Items
}

// lint answers {"ok": no errors, "findings": [...]}.
func (h *Handler) lint(w http.ResponseWriter, body []byte, _ string) {
	v := parseObject(w, body, "manifest", "manifestId")
	if v == nil {
		return
	}
	m := h.manifestOf(w, v)
	if m == nil {
		return
	}
	fs := lintManifest(m)
	ok := true
	out := []byte(`{"ok":`)
	for _, f := range fs {
		ok = ok && f.level != "error"
	}
	out = strconv.AppendBool(out, ok)
	out = append(out, `,"findings":[`...)
	for i, f := range fs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"level":`...)
		out = jsonval.AppendString(out, f.level)
		out = append(out, `,"code":`...)
		out = jsonval.AppendString(out, f.code)
		out = append(out, `,"message":`...)
		out = jsonval.AppendString(out, f.message)
		if f.param != "" {
			out = append(out, `,"param":`...)
			out = jsonval.AppendString(out, f.param)
		}
		out = append(out, '}')
	}
	writeJSON(w, http.StatusOK, append(out, "]}"...))
}
