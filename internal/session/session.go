// Package session is the core's one entry point: a Session takes one JSON
// request ({"op": ...}) and returns one JSON response, holding the loaded
// plan, the current snapshot, the recent snapshots and the audit queue
// between calls. It parses and checks every request (request.go), runs
// load and observe (session.go), prepare (prepare.go) and after
// (after.go), and keeps the audit log (audit.go).
//
// The ABI layer in wasm/, the native API (package pinhole), the CLI and the
// Worker all drive the core through Session.Call, so every runtime shares
// one behaviour. A
// failed operation never changes what is in force: a bad load keeps the
// previous manifest, a bad observe keeps the previous snapshot.
package session

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/patch"
	"github.com/pinholectx/pinhole/internal/project"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

// Version is the module's version, reported by the version operation.
const Version = "0.1.0"

// ABI is the version of the module's exported-function interface
// (pinhole_alloc, pinhole_call, pinhole_free).
const ABI = 1

// MaxRequestBytes bounds one request, a full observe included.
const MaxRequestBytes = 128 << 20

// Session is one agent session: a loaded manifest and its snapshots.
// It is not safe for concurrent use; each module instance holds one.
type Session struct {
	random func([]byte) error // fills a session key when load brings none
	plan   *manifest.Plan
	reads  *prune.Tree // what plan declares: states and patches are kept to it
	keyer  *expose.Keyer
	snap   *project.Snapshot
	id     string // snapshot id of snap
	seq    int    // last snapshot number handed out
	audit  auditLog
	// history holds the latest snapshots, so after and prepare can compare
	// with what an agent saw without the caller sending it again.
	history history
	ev      wire.AuditEvent // the current operation's audit details
	// described is the last describe's request and answer.
	described describeCache
	// withheld is set while the manifest's session scope is absent from the
	// state or cut: no tenant to key tokens to, so no context is given.
	withheld bool
}

// withheldScope is the keyer's scope while the session scope is withheld:
// one for every such state, so that change detection goes on as usual (a
// scope of each observe's own would make every hidden change a new
// snapshot id). No token of it is ever shown or resolved: describe, prepare
// and after refuse while it lasts. No JSON text starts with a NUL byte, so
// no scope value can equal it.
var withheldScope = []byte("\x00withheld")

// withheldText says why the context is withheld, after the scope's pointer:
// in describe's, prepare's and after's error, and in observe's warning.
const withheldText = ": the session scope is not in the state, or could not be read; no context is given until it is"

// errWithheld is the answer of describe, prepare and after while the
// session scope is withheld.
func (s *Session) errWithheld() *wire.Error {
	at := s.plan.SessionScope.String()
	return wire.NewError(wire.CodeInvalidState, at+withheldText, at)
}

// New returns an empty session: nothing loaded. Its load needs a key.
func New() *Session { return &Session{} }

// NewWithRandom returns an empty session that draws a session key from
// random when a load brings none: the host's randomness (WASI random_get in
// the module, crypto/rand natively). The core itself imports no randomness,
// which keeps crypto/rand and what it pulls in out of the module.
func NewWithRandom(random func([]byte) error) *Session { return &Session{random: random} }

// UseRandom makes an empty Session (a zero value or one from New) draw its
// session key from random when a load brings none, as one from
// NewWithRandom does. It is for a session that is not allocated on its
// own, such as the module's, which lives in the module's data. Call it
// before the first Call.
func (s *Session) UseRandom(random func([]byte) error) { s.random = random }

// Call runs one request and returns its JSON response. It never panics: an
// internal fault is reported as an error response and changes nothing.
func (s *Session) Call(req []byte) (out []byte) {
	op := "unknown"
	defer func() {
		if r := recover(); r != nil {
			out = errorJSON(wire.NewError(wire.CodeInternal, "internal error in operation "+string(jsonval.AppendString(nil, op))+"; nothing was changed", ""))
		}
		s.ev.Op, s.ev.Snapshot, s.ev.BytesIn, s.ev.BytesOut = op, s.id, len(req), len(out)
		s.audit.record(s.ev, out)
		s.ev = wire.AuditEvent{}
	}()
	if len(req) > MaxRequestBytes {
		return errorJSON(wire.NewError(wire.CodeStateTooLarge, "the request exceeds "+strconv.Itoa(MaxRequestBytes)+" bytes", ""))
	}
	if c := &s.described; c.out != nil && c.snapshot == s.id && !s.withheld && string(c.req) == string(req) {
		// The same describe of the same snapshot: the same answer.
		op = "describe"
		s.audited(c.stats)
		return c.out
	}
	v, err := jsonval.Parse(req)
	if err != nil {
		// The fault without its byte offset: a request may carry the
		// store's slice, and an offset into it would tell the agent the
		// lengths of the values before the fault, protected ones among
		// them.
		msg := err.Error()
		if se, ok := err.(*jsonval.SyntaxError); ok {
			msg = se.Msg
		}
		return errorJSON(wire.NewError(wire.CodeInvalidRequest, "the request is not valid JSON: "+msg, ""))
	}
	if v.Kind != jsonval.Object || v.Get("op") == nil || v.Get("op").Kind != jsonval.String {
		return errorJSON(wire.NewError(wire.CodeInvalidRequest, "a request is a JSON object with a string \"op\"", "op"))
	}
	op = v.Get("op").S
	var resp []byte
	var e *wire.Error
	switch op {
	case "load":
		resp, e = s.load(v)
	case "observe":
		resp, e = s.observe(v)
	case "describe":
		resp, e = s.describe(v, req)
	case "prepare":
		resp, e = s.prepare(v)
	case "after":
		resp, e = s.after(v)
	case "audit":
		resp, e = s.audit.drain(), nil
	case "version":
		resp = wire.Encode(&wire.Version{Version: Version, Format: manifest.Format, ABI: ABI,
			Limits: manifest.HardMax(), MaxState: MaxRequestBytes})
	default:
		op = "unknown"
		e = wire.NewError(wire.CodeInvalidRequest, "unknown operation; ops are load, observe, describe, prepare, after, audit, version", "op")
	}
	if e != nil {
		return errorJSON(e)
	}
	return resp
}

func errorJSON(e *wire.Error) []byte {
	e.Message = scrub(e.Message)
	if expose.IsCredential(e.Param) {
		e.Param = ""
	}
	return wire.Encode(&wire.ErrorResponse{Error: e})
}

// scrub runs the credential safety net over an error message. Messages are
// built from manifest paths and limits only, so this is a second line.
func scrub(msg string) string {
	if expose.IsCredential(msg) {
		return "the request was rejected; details withheld because they looked like a credential"
	}
	return msg
}

func (s *Session) load(v *jsonval.Value) ([]byte, *wire.Error) {
	for _, k := range v.Keys {
		if k != "op" && k != "manifest" && k != "key" {
			return nil, UnknownParam("load", k, "manifest and key")
		}
	}
	m := v.Get("manifest")
	if m == nil {
		return nil, wire.NewError(wire.CodeInvalidManifest, "load needs a manifest", "manifest")
	}
	plan, e := manifest.Compile(m)
	if e != nil {
		return nil, e
	}
	var key []byte
	if k := v.Get("key"); k != nil {
		if k.Kind != jsonval.String || len(k.S) < 16 || len(k.S) > 256 {
			return nil, wire.NewError(wire.CodeInvalidRequest, "key must be a string of 16 to 256 bytes", "key")
		}
		key = []byte(k.S)
	} else {
		key = make([]byte, 32)
		if s.random == nil || s.random(key) != nil {
			return nil, wire.NewError(wire.CodeInvalidRequest, "this host has no randomness to draw a session key from: load needs a key", "key")
		}
	}
	s.plan, s.reads, s.keyer, s.snap, s.id = plan, plan.ReadTree(), expose.NewKeyer(key), nil, ""
	s.history = history{}
	s.withheld = false
	return wire.Encode(&wire.Loaded{Loaded: true, Limits: plan.Limits, Reads: plan.Reads}), nil
}

func (s *Session) observe(v *jsonval.Value) ([]byte, *wire.Error) {
	if s.plan == nil {
		return nil, wire.NewError(wire.CodeNotLoaded, "load a manifest before observe", "")
	}
	for _, k := range v.Keys {
		if k != "op" && k != "state" && k != "patch" {
			return nil, UnknownParam("observe", k, "state or patch")
		}
	}
	st, ops := v.Get("state"), v.Get("patch")
	var declared *jsonval.Value
	switch {
	case st != nil && ops != nil:
		return nil, wire.NewError(wire.CodeInvalidRequest, "observe takes a state or a patch, not both", "patch")
	case ops != nil:
		if s.snap == nil {
			return nil, wire.NewError(wire.CodeInvalidState, "a patch needs a previous state: observe a full state first", "patch")
		}
		next, err := patch.ApplyDeclared(s.reads, s.snap.Root, ops)
		if err != nil {
			return nil, wire.NewError(wire.CodeInvalidState, "the patch does not apply: "+err.Error()+"; the previous state stays in force", err.Param())
		}
		if next.Kind != jsonval.Object {
			return nil, wire.NewError(wire.CodeInvalidState, "the patch would make the state something other than an object", "patch")
		}
		declared = next
	case st == nil:
		return nil, wire.NewError(wire.CodeInvalidState, "observe needs a state or a patch", "state")
	case st.Kind != jsonval.Object:
		return nil, wire.NewError(wire.CodeInvalidState, "the state must be a JSON object", "state")
	default:
		declared = s.reads.State(st)
		if declared == nil {
			declared = jsonval.NewObject()
		}
	}
	if s.snap != nil && jsonval.Equal(declared, s.snap.Root) {
		return observed(s.id, false, s.snap), nil
	}
	snap := project.Build(s.plan, declared, s.snap)
	if s.plan.SessionScope != nil {
		// A new tenant, account or user: new tokens, and the old stop resolving.
		scope := prune.Lookup(declared, s.plan.SessionScope)
		// Absent (the bridge leaves out a value it cannot read, such as a
		// class instance) or cut, the scope cannot tell tenants apart:
		// withheld (fail closed). null is a scope: no tenant.
		s.withheld = scope == nil || prune.IsCut(scope)
		if s.withheld {
			s.keyer.SetScope(withheldScope)
		} else {
			s.keyer.SetScope(jsonval.Marshal(scope))
		}
	}
	snap.Scope, snap.Withheld = s.keyer.Scope(), s.withheld
	if s.withheld {
		// Said to the app (the bridge's snapshot_warnings), not to the agent.
		snap.Warnings = append(snap.Warnings, s.plan.SessionScope.String()+withheldText)
	}
	if s.snap != nil && project.Unchanged(s.snap, snap) {
		// Changed only where the context hides it: the new state, under the
		// same snapshot id, so that the id does not tell the agent that a
		// hidden value changed.
		s.snap = snap
		s.history.replace(s.id, snap)
		s.described = describeCache{}
		return observed(s.id, false, snap), nil
	}
	s.seq++
	s.snap, s.id = snap, "s"+strconv.Itoa(s.seq)
	s.ev.Records = snap.Total
	s.history.add(s.id, snap)
	return observed(s.id, true, snap), nil
}

// observed is an observe's answer for the snapshot id and snap.
func observed(id string, changed bool, snap *project.Snapshot) []byte {
	return wire.Encode(&wire.Observed{Snapshot: id, Changed: changed, RecordsTotal: snap.Total,
		Skipped: snap.Skipped, Duplicates: snap.Duplicates, Cut: snap.Cut, Warnings: snap.Warnings})
}

func (s *Session) describe(v *jsonval.Value, raw []byte) ([]byte, *wire.Error) {
	if s.plan == nil {
		return nil, wire.NewError(wire.CodeNotLoaded, "load a manifest before describe", "")
	}
	if s.snap == nil {
		return nil, wire.NewError(wire.CodeNotLoaded, "observe a state before describe", "")
	}
	req, e := parseDescribe(v, &s.plan.Limits)
	if e != nil {
		return nil, e
	}
	if s.withheld {
		return nil, s.errWithheld()
	}
	var st project.Stats
	out, e := s.snap.Describe(s.id, req, s.keyer, &st)
	s.audited(st)
	if e == nil {
		s.described = describeCache{req: append(s.described.req[:0], raw...), snapshot: s.id, out: out, stats: st}
	}
	return out, e
}

// describeCache keeps the last successful describe: agents often repeat
// a describe while nothing changed, and the answer is a function of the
// request bytes and the snapshot (snapshot ids are never reused in a
// session, so a new snapshot or manifest is a miss).
type describeCache struct {
	req      []byte
	snapshot string
	out      []byte
	stats    project.Stats
}

// audited adds a response summary to the current audit event.
func (s *Session) audited(st project.Stats) {
	s.ev.Records, s.ev.Ids, s.ev.Fields, s.ev.Redacted, s.ev.Truncated = st.Records, st.Ids, st.Fields, st.Redacted, st.Truncated
}
