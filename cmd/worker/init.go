package main

import (
	"net/http"

	"github.com/pinholectx/pinhole/cmd/internal/draft"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// draftManifest answers a {"state", "schema"?} body with the draft
// manifest `pinhole init` writes for that sample (package draft): the
// manifest itself, indented, each choice explained in a "$comment".
// "schema" is the draft's "$schema" ("" leaves it out; absent, the npm
// package's schema).
func (h *Handler) draftManifest(w http.ResponseWriter, body []byte, _ string) {
	v := parseObject(w, body, "state", "schema")
	if v == nil {
		return
	}
	opt := draft.Options{Schema: draft.DefaultSchema}
	if s := v.Get("schema"); s != nil {
		if s.Kind != jsonval.String {
			writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "schema", "schema must be a string (\"\" leaves the draft's $schema out)")
			return
		}
		opt.Schema = s.S
	}
	st := v.Get("state")
	if st == nil {
		writeError(w, http.StatusUnprocessableEntity, wire.CodeInvalidState, "state", "the body needs a state: a sample of the store")
		return
	}
	text, e := draft.Manifest(st, opt)
	if e != nil {
		writeError(w, statusFor(e.Code), e.Code, e.Param, e.Message)
		return
	}
	h.answer(w, http.StatusOK, text)
}
