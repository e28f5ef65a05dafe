package main

import (
	"net/http"
	"strconv"

	"github.com/pinholectx/pinhole/cmd/internal/lint"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/wire"
)

// finding is one lint result. Messages name manifest paths, never values.
type finding struct {
	level, code, message, param string
}

// lintManifest reports invalid_manifest (an error) when the core rejects m,
// and otherwise a warning for every risky declaration the shared lint finds
// (the same checks as `pinhole lint`), judging sample values in state when
// it is not nil, and for every declared path state has no place for.
func lintManifest(m, state *jsonval.Value) []finding {
	plan, e := manifest.Compile(m)
	if e != nil {
		return []finding{{"error", e.Code, e.Message, e.Param}}
	}
	var out []finding
	for _, f := range lint.Plan(plan, state) {
		out = append(out, finding{"warning", wire.FindingRiskyDeclaration, f.At + ": " + f.Message, f.At})
	}
	for _, f := range lint.Paths(plan, state) {
		out = append(out, finding{"warning", wire.FindingPathNotInState, f.At + ": " + f.Message, f.At})
	}
	return out
}

// lint answers {"ok": no errors, "findings": [...]}.
func (h *Handler) lint(w http.ResponseWriter, body []byte, _ string) {
	v := parseObject(w, body, "manifest", "manifestId", "state")
	if v == nil {
		return
	}
	m := h.manifestOf(w, v)
	if m == nil {
		return
	}
	fs := lintManifest(m, v.Get("state"))
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
	h.answer(w, http.StatusOK, append(out, "]}"...))
}
