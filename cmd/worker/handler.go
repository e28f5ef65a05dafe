// Command worker is Pinhole's projection served over HTTP as a Cloudflare
// Worker. It is a plain net/http handler over the same core the module runs
// (internal/session): built with GOOS=js GOARCH=wasm it is served by
// github.com/syumai/workers (main_js.go); built natively it listens on a
// local port (main_other.go), which is how the handler is tested and
// compared with the Worker.
//
// Endpoints (all answers are JSON; every error is the envelope
// {"error":{"code","message","param"}} of docs/protocol.md#errors):
//
//	POST /v1/describe  {"manifest"|"manifestId", "state", "request"} → describe response
//	POST /v1/session   [module requests] → [module responses], or one per line
//	                   as application/x-ndjson (one fresh session)
//	POST /v1/lint      {"manifest"|"manifestId"} → {"ok", "findings"}
//	POST /v1/init      {"state", "schema"?} → the draft manifest `pinhole init` writes
//	GET  /v1/version   → {"module": <version op>, "worker": {...}}
//	GET  /healthz      → {"ok":true}
//
// The Worker is stateless: every request runs in a fresh session.Session.
// See README.md for configuration, limits and deployment.
package main

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/pinholectx/pinhole/cmd/internal/randkey"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// Default bounds, each a Worker setting (config.go). A request that would
// pass one is refused whole, before anything is written: nothing partial is
// ever answered. BENCHMARKS.md has the peak memory of the largest request
// the defaults accept, measured under workerd.
const (
	// DefaultMaxBodyBytes bounds a request body: the orders example (51 KB)
	// several times over. Memory grows with the body (a parsed JSON value
	// takes many times its text), so this bound is also the memory bound.
	DefaultMaxBodyBytes = 256 << 10
	// DefaultMaxResponseBytes bounds an answer, and the sum of a batch's
	// answers: room for one describe at the core's largest
	// maxResponseBytes (1 MiB) and more.
	DefaultMaxResponseBytes = 2 << 20
	// DefaultMaxBatch bounds the module requests one /v1/session call runs.
	DefaultMaxBatch = 1000
	// MaxReadingBytes bounds the request bodies one instance reads at
	// once, counted at their declared length (or MaxBodyBytes when none is
	// declared). A request past it is answered 503 with Retry-After before
	// its body is read: a hundred slow uploads would otherwise hold a
	// hundred buffers against the instance's memory limit, and its
	// collector would run without end.
	MaxReadingBytes = 8 << 20
)

// Config is what the Worker's environment decides. The zero value is
// usable: default bounds, no CORS origins, a random key per request and no
// bound manifests.
type Config struct {
	// MaxBodyBytes bounds a request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxResponseBytes bounds an answer's body, a batch's answers
	// together; 0 means DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// MaxBatch bounds the requests of one /v1/session batch; 0 means
	// DefaultMaxBatch.
	MaxBatch int
	// AllowedOrigins are the exact origins (scheme://host[:port]) that get
	// CORS headers. Others get none, and their preflights are refused.
	AllowedOrigins []string
	// Key is the session key passed to load for /v1/describe. Empty means
	// the core draws a random key for every request, so aliases and
	// placeholders do not repeat across requests.
	Key string
	// Manifests is a JSON object mapping manifest ids to manifests, so a
	// caller can send "manifestId" instead of the manifest. It is parsed
	// only when a request needs it.
	Manifests string
}

// Handler serves the Worker's endpoints. It is safe for concurrent use.
type Handler struct {
	cfg Config
}

// reading is the bytes of the bodies being read now in this instance
// (MaxReadingBytes): one count for every Handler, since the Worker makes a
// Handler for each request's configuration.
var reading atomic.Int64

// NewHandler returns the Worker's handler for cfg.
func NewHandler(cfg Config) *Handler {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = DefaultMaxBatch
	}
	return &Handler{cfg: cfg}
}

// route is one endpoint: the method it answers and, for POST, the media
// types its body may have.
type route struct {
	method string
	types  []string
	serve  func(h *Handler, w http.ResponseWriter, body []byte, mediaType string)
}

const (
	typeJSON   = "application/json"
	typeNDJSON = "application/x-ndjson"
)

var routes = map[string]route{
	"/v1/describe": {http.MethodPost, []string{typeJSON}, (*Handler).describe},
	"/v1/session":  {http.MethodPost, []string{typeJSON, typeNDJSON}, (*Handler).batch},
	"/v1/lint":     {http.MethodPost, []string{typeJSON}, (*Handler).lint},
	"/v1/init":     {http.MethodPost, []string{typeJSON}, (*Handler).draftManifest},
	"/v1/version":  {http.MethodGet, nil, (*Handler).version},
	"/healthz":     {http.MethodGet, nil, func(_ *Handler, w http.ResponseWriter, _ []byte, _ string) { writeJSON(w, 200, []byte(`{"ok":true}`)) }},
}

// ServeHTTP routes a request, checking path, method, CORS, content type and
// body size before any endpoint sees it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	allowed := commonHeaders(hd, r, h.cfg.AllowedOrigins)
	rt, ok := routes[r.URL.Path]
	if !ok {
		writeError(w, http.StatusNotFound, wire.CodeInvalidRequest, "path", "no endpoint at this path; endpoints are /v1/describe, /v1/session, /v1/lint, /v1/init, /v1/version, /healthz")
		return
	}
	methods := rt.method + ", OPTIONS"
	if rt.method == http.MethodGet {
		methods = "GET, HEAD, OPTIONS"
	}
	if r.Method == http.MethodOptions {
		if !allowed {
			writeError(w, http.StatusForbidden, wire.CodeInvalidRequest, "origin", "cross-origin requests are allowed only from the origins the Worker is configured with")
			return
		}
		hd.Set("Access-Control-Allow-Methods", methods)
		hd.Set("Access-Control-Allow-Headers", "Content-Type")
		hd.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		hd.Set("Allow", methods)
		writeError(w, http.StatusMethodNotAllowed, wire.CodeInvalidRequest, "method", "method not allowed; this endpoint takes "+methods)
		return
	}
	var body []byte
	var mt string
	if rt.method == http.MethodPost {
		if mt = mediaType(r.Header.Get("Content-Type"), rt.types); mt == "" {
			writeError(w, http.StatusUnsupportedMediaType, wire.CodeInvalidRequest, "content-type", "the body must be sent as "+strings.Join(rt.types, " or ")+" (UTF-8)")
			return
		}
		// A body's share of the budget: its declared length, or the bound
		// (a longer declared one is refused unread by readBounded).
		share := h.cfg.MaxBodyBytes
		if r.ContentLength >= 0 && r.ContentLength < share {
			share = r.ContentLength
		}
		if reading.Add(share) > MaxReadingBytes && share > 0 {
			reading.Add(-share)
			hd.Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, wire.CodeInternal, "body", "the Worker is reading too many request bodies at once; retry in a moment")
			return
		}
		var tooLarge bool
		body, tooLarge = readCounted(r, h.cfg.MaxBodyBytes, share)
		if tooLarge {
			writeError(w, http.StatusRequestEntityTooLarge, wire.CodeStateTooLarge, "body", "the request body exceeds "+strconv.FormatInt(h.cfg.MaxBodyBytes, 10)+" bytes")
			return
		}
		if body == nil {
			writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body", "the request body could not be read")
			return
		}
	}
	rt.serve(h, w, body, mt)
}

// commonHeaders sets the headers every answer carries: no-store, nosniff
// and, for an allowed origin, CORS. It reports whether the request's
// origin is allowed.
func commonHeaders(hd http.Header, r *http.Request, origins []string) bool {
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	origin := r.Header.Get("Origin")
	allowed := origin != "" && slices.Contains(origins, origin)
	if len(origins) > 0 {
		hd.Set("Vary", "Origin")
	}
	if allowed {
		hd.Set("Access-Control-Allow-Origin", origin)
	}
	return allowed
}

// mediaType returns the media type of a Content-Type when it is one of
// types with no charset or a UTF-8 one, else "".
func mediaType(ct string, types []string) string {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || !slices.Contains(types, mt) {
		return ""
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return ""
	}
	return mt
}

// readCounted is readBounded for a body whose share of the reading budget
// was taken: it gives the share back however reading ends.
func readCounted(r *http.Request, max, share int64) ([]byte, bool) {
	defer reading.Add(-share)
	return readBounded(r, max)
}

// readBounded reads at most max bytes of the body. It reports tooLarge as
// soon as the declared length or the bytes read pass max, and returns a nil
// body when reading fails.
func readBounded(r *http.Request, max int64) (body []byte, tooLarge bool) {
	if r.ContentLength > max {
		return nil, true
	}
	if r.ContentLength >= 0 {
		// The declared length: one buffer of that size, not a growing one,
		// and a body longer than declared is refused.
		b := make([]byte, r.ContentLength+1)
		n, err := io.ReadFull(r.Body, b)
		switch {
		case int64(n) > r.ContentLength:
			return nil, int64(n) > max
		case err != io.ErrUnexpectedEOF && err != io.EOF && err != nil:
			return nil, false
		case int64(n) < r.ContentLength:
			return nil, false
		}
		return b[:n], false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	if err != nil {
		return nil, false
	}
	if int64(len(b)) > max {
		return nil, true
	}
	if b == nil {
		b = []byte{}
	}
	return b, false
}

// writeJSON writes a JSON body with its status.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// writeError writes the error envelope (docs/protocol.md#errors).
func writeError(w http.ResponseWriter, status int, code, param, msg string) {
	writeJSON(w, status, wire.Encode(&wire.ErrorResponse{Error: wire.NewError(code, msg, param)}))
}

// parseObject parses a body that must be a JSON object with only the
// allowed members. On failure it has written the error and returns nil.
func parseObject(w http.ResponseWriter, body []byte, allowed ...string) *jsonval.Value {
	v, err := jsonval.Parse(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body", "the body is not valid JSON: "+err.Error())
		return nil
	}
	if v.Kind != jsonval.Object {
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body", "the body must be a JSON object")
		return nil
	}
	for _, k := range v.Keys {
		if !slices.Contains(allowed, k) {
			// The member name is the caller's text: named only when short and plain.
			e := session.UnknownParam("body", k, strings.Join(allowed, ", "))
			writeError(w, http.StatusBadRequest, e.Code, e.Param, e.Message)
			return nil
		}
	}
	return v
}

// manifestOf returns the manifest a body names, inline or by id. On
// failure it has written the error and returns nil.
func (h *Handler) manifestOf(w http.ResponseWriter, v *jsonval.Value) *jsonval.Value {
	m, id := v.Get("manifest"), v.Get("manifestId")
	switch {
	case m != nil && id != nil:
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "manifestId", "send either manifest or manifestId, not both")
		return nil
	case m != nil:
		return m
	case id == nil:
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "manifest", "the body needs a manifest or a manifestId")
		return nil
	}
	return h.manifestByID(w, id)
}

// manifestByID returns the bound manifest id names. On failure (id is not
// a string, or no manifest is bound under it) it has written the error and
// returns nil.
func (h *Handler) manifestByID(w http.ResponseWriter, id *jsonval.Value) *jsonval.Value {
	if id == nil || id.Kind != jsonval.String {
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "manifestId", "manifestId must be a string")
		return nil
	}
	all, err := h.manifests()
	if err != nil {
		writeError(w, http.StatusInternalServerError, wire.CodeInternal, "", err.Error())
		return nil
	}
	m := all.Get(id.S)
	if m == nil {
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "manifestId", "no manifest is bound under this id; GET /v1/version lists the bound ids")
		return nil
	}
	return m
}

// configError is a fault of the Worker's configuration. Its message names
// the setting, never its value.
type configError string

func (e configError) Error() string { return string(e) }

// manifests parses the bound manifests. A fresh parse per call keeps the
// handler free of shared mutable state: one Go instance serves many
// requests, some at once.
func (h *Handler) manifests() (*jsonval.Value, error) {
	if h.cfg.Manifests == "" {
		return jsonval.NewObject(), nil
	}
	v, err := jsonval.Parse([]byte(h.cfg.Manifests))
	if err != nil || v.Kind != jsonval.Object {
		return nil, configError("the Worker is misconfigured: PINHOLE_MANIFESTS must be a JSON object of manifests by id")
	}
	return v, nil
}

// statusFor maps a module error code to an HTTP status (README.md,
// "Errors").
func statusFor(code string) int {
	switch code {
	case wire.CodeInvalidManifest, wire.CodeInvalidState:
		return http.StatusUnprocessableEntity
	case wire.CodeStateTooLarge:
		return http.StatusRequestEntityTooLarge
	case wire.CodeInternal, wire.CodeNotLoaded:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// answer writes a successful answer, or, when body is larger than the
// response bound, the 413 error instead of it.
func (h *Handler) answer(w http.ResponseWriter, status int, body []byte) {
	if int64(len(body)) > h.cfg.MaxResponseBytes {
		h.tooLong(w)
		return
	}
	writeJSON(w, status, body)
}

// tooLong refuses a request whose answer would pass the response bound.
func (h *Handler) tooLong(w http.ResponseWriter) {
	writeError(w, http.StatusRequestEntityTooLarge, wire.CodeLimitExceedsMax, "body",
		"the answer would exceed "+strconv.FormatInt(h.cfg.MaxResponseBytes, 10)+
			" bytes (the Worker's response bound); send fewer requests or ask for smaller windows")
}

// describeRequests builds the load, observe and describe requests of a
// /v1/describe body. The body is split, not parsed: the manifest, the
// state and the describe parameters reach the core as sent, and only the
// core parses them (a parsed value takes many times the memory of its
// text). On failure it has written the error and returns nil.
func (h *Handler) describeRequests(w http.ResponseWriter, body []byte) [][]byte {
	ms, err := splitObject(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body", err.Error())
		return nil
	}
	allowed := []string{"manifest", "manifestId", "state", "request"}
	var manifest, id, state, params []byte
	for _, m := range ms {
		switch m.name {
		case "manifest":
			manifest = m.value
		case "manifestId":
			id = m.value
		case "state":
			state = m.value
		case "request":
			params = m.value
		default:
			// The member name is the caller's text: named only when short and plain.
			e := session.UnknownParam("body", m.name, strings.Join(allowed, ", "))
			writeError(w, http.StatusBadRequest, e.Code, e.Param, e.Message)
			return nil
		}
	}
	switch {
	case manifest != nil && id != nil:
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "manifestId", "send either manifest or manifestId, not both")
		return nil
	case manifest == nil && id == nil:
		writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "manifest", "the body needs a manifest or a manifestId")
		return nil
	case id != nil:
		v, err := jsonval.Parse(id)
		if err != nil {
			v = nil
		}
		m := h.manifestByID(w, v)
		if m == nil {
			return nil
		}
		manifest = jsonval.Marshal(m)
	}
	if params != nil {
		pm, err := splitObject(params)
		if err != nil {
			writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "request", "request must be a JSON object (the describe parameters)")
			return nil
		}
		for _, m := range pm {
			if m.name == "op" {
				writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "request", "request holds describe parameters only, no \"op\"")
				return nil
			}
		}
	}
	if state == nil {
		writeError(w, http.StatusUnprocessableEntity, wire.CodeInvalidState, "state", "the body needs a state")
		return nil
	}
	desc, e := wire.DescribeRequest(params)
	if e != nil { // cannot happen: params is an object
		writeError(w, http.StatusBadRequest, e.Code, "request", e.Message)
		return nil
	}
	return [][]byte{wire.LoadRequest(manifest, h.cfg.Key), wire.ObserveRequest(state), desc}
}

// describe runs load, observe and describe in a fresh session and answers
// with the core's describe bytes unchanged, or with the first error.
func (h *Handler) describe(w http.ResponseWriter, body []byte, _ string) {
	reqs := h.describeRequests(w, body)
	if reqs == nil {
		return
	}
	s := session.NewWithRandom(randkey.Fill)
	var resp []byte
	for i, call := range reqs {
		resp = s.Call(call)
		reqs[i] = nil // the core has its own copy; let this one go
		if e := wire.DecodeError(resp); e != nil {
			writeJSON(w, statusFor(e.Code), resp)
			return
		}
	}
	h.answer(w, http.StatusOK, resp)
}

// batch runs module requests in one fresh session: a JSON array of request
// objects answered by the array of responses, or (application/x-ndjson)
// one request per line answered by one response per line, so that any
// bytes a conformance vector holds reach the core exactly as written.
// Responses are byte for byte what the module returns; module errors stay
// in the answer and the status is 200 whenever the batch is well formed
// and its answers fit the response bound together. A batch whose answers
// would not fit is refused as soon as the sum passes the bound, and
// nothing of it is sent. A batch with a patch that copies is refused before
// anything runs (copiesInPatch).
func (h *Handler) batch(w http.ResponseWriter, body []byte, mt string) {
	var reqs [][]byte
	if mt == typeNDJSON {
		reqs = bytes.Split(body, []byte{'\n'})
		if len(reqs) > 0 && len(reqs[len(reqs)-1]) == 0 {
			reqs = reqs[:len(reqs)-1]
		}
		if len(reqs) == 0 || len(reqs) > h.cfg.MaxBatch {
			writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body", "the body must hold 1 to "+strconv.Itoa(h.cfg.MaxBatch)+" module requests, one per line")
			return
		}
	} else {
		var ok bool
		reqs, ok = splitArray(body)
		if !ok || len(reqs) == 0 || len(reqs) > h.cfg.MaxBatch {
			writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body", "the body must be a JSON array of 1 to "+strconv.Itoa(h.cfg.MaxBatch)+" module requests")
			return
		}
	}
	for _, req := range reqs {
		if copiesInPatch(req) {
			writeError(w, http.StatusBadRequest, wire.CodeInvalidRequest, "body",
				"the Worker takes no copy operations in patches: each patch's copies may double the state, so a batch of small patches could build a state far larger than its body; send the value with add instead")
			return
		}
	}
	max := h.cfg.MaxResponseBytes
	s := session.NewWithRandom(randkey.Fill)
	var out []byte
	if mt != typeNDJSON {
		out = append(out, '[')
	}
	for i, req := range reqs {
		resp := s.Call(req)
		extra := 1 // the newline, or the closing bracket
		if mt != typeNDJSON && i > 0 {
			extra++ // the comma
		}
		if int64(len(out)+len(resp)+extra) > max {
			h.tooLong(w)
			return
		}
		if mt == typeNDJSON {
			out = append(append(out, resp...), '\n')
			continue
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, resp...)
	}
	if mt == typeNDJSON {
		w.Header().Set("Content-Type", typeNDJSON)
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.WriteHeader(http.StatusOK)
		w.Write(out)
		return
	}
	h.answer(w, http.StatusOK, append(out, ']'))
}

// version answers with the module's version operation and the Worker's own
// bounds and bindings (ids only).
func (h *Handler) version(w http.ResponseWriter, _ []byte, _ string) {
	out := append([]byte(`{"module":`), session.NewWithRandom(randkey.Fill).Call(wire.VersionRequest())...)
	out = append(out, `,"worker":{"maxBodyBytes":`...)
	out = strconv.AppendInt(out, h.cfg.MaxBodyBytes, 10)
	out = append(out, `,"maxBatch":`...)
	out = strconv.AppendInt(out, int64(h.cfg.MaxBatch), 10)
	out = append(out, `,"maxResponseBytes":`...)
	out = strconv.AppendInt(out, h.cfg.MaxResponseBytes, 10)
	key := "per-request"
	if h.cfg.Key != "" {
		key = "configured"
	}
	out = append(out, `,"key":`...)
	out = jsonval.AppendString(out, key)
	out = append(out, `,"manifests":[`...)
	all, err := h.manifests()
	if err != nil {
		writeError(w, http.StatusInternalServerError, wire.CodeInternal, "", err.Error())
		return
	}
	for i, id := range all.Keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonval.AppendString(out, id)
	}
	h.answer(w, http.StatusOK, append(out, "]}}"...))
}
