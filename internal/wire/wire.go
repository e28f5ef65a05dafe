// Package wire holds the protocol's facts in one place: the JSON shapes the
// core answers with (describe, after and the small answers of the other
// operations), the error type and the one list of error codes (errors.go),
// and the builders of every request (request.go) that hosts, the CLI and
// the Worker send.
// Encoders are generated (`go generate`, internal/gen) and write through
// internal/jw, an append-only writer; nothing on these paths uses
// reflection, fmt or os. js/src/types.ts mirrors these types for
// JavaScript callers.
package wire

//go:generate go run ./internal/gen wire.go errors.go after.go

// Limits are the bounds in force for a loaded manifest.
type Limits struct {
	DefaultLimit       int `json:"defaultLimit"`
	MaxLimit           int `json:"maxLimit"`
	MaxRecordSelection int `json:"maxRecordSelection"`
	MaxRecordIds       int `json:"maxRecordIds"`
	MaxFieldChars      int `json:"maxFieldChars"`
	MaxFeedback        int `json:"maxFeedback"`
	MaxUnavailable     int `json:"maxUnavailable"`
	MaxResponseBytes   int `json:"maxResponseBytes"`
}

// Capability is an action the application offers, as the manifest declares
// it. Input is the JSON Schema of its input, re-encoded canonically.
type Capability struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Scope       string `json:"scope"`
	Region      string `json:"region"`
	Input       Raw    `json:"input"`
}

// Describe is the answer to describe.
type Describe struct {
	Snapshot     string       `json:"snapshot"`
	Limits       Limits       `json:"limits"`
	Capabilities []Capability `json:"capabilities"`
	Context      Context      `json:"context"`
}

// Context is the projected business view (docs/context-model.md#structure).
type Context struct {
	Page             *Page         `json:"page,omitempty"`
	Regions          []Region      `json:"regions"`
	Records          []Record      `json:"records"`
	RecordIds        []string      `json:"recordIds"`
	RecordIdsTotal   int           `json:"recordIdsTotal"`
	RecordWindow     *Window       `json:"recordWindow,omitempty"`
	RecordsTotal     int           `json:"recordsTotal"`
	DuplicatesTotal  int           `json:"duplicatesTotal,omitempty"` // records sharing an id: none referenceable
	CutTotal         int           `json:"cutTotal,omitempty"`        // declared values left out, shown as null (Record.Cut, StateCut)
	State            Members       `json:"state"`
	StateTruncated   Counts        `json:"stateTruncated,omitempty"`
	StateCut         []string      `json:"stateCut,omitempty"` // state keys whose value was left out
	Feedback         []Feedback    `json:"feedback"`
	FeedbackTotal    int           `json:"feedbackTotal"`
	Unavailable      []Unavailable `json:"unavailable"`
	UnavailableTotal int           `json:"unavailableTotal"`
}

// Page is the page identity: route, title and allowed parameters.
type Page struct {
	Route  string  `json:"route,omitempty"`
	Title  string  `json:"title,omitempty"`
	Params Members `json:"params,omitempty"`
	// Truncated maps "route", "title" or "params/NAME" to its original
	// length in characters, when it was cut at maxFieldChars.
	Truncated Counts `json:"truncated,omitempty"`
}

// Region is one active region of the page.
type Region struct {
	ID          string `json:"id"`
	Parent      string `json:"parent,omitempty"`
	Description string `json:"description,omitempty"`
	// Cut is true when a collection of the region was left out whole (a
	// cut marker in its place: an array too long to read): its records
	// are not listed, and the region is not empty for that.
	Cut bool `json:"cut,omitempty"`
}

// Record is one record of the window, with its projected fields.
type Record struct {
	ID          string   `json:"id"`
	Region      string   `json:"region"`
	Fields      Members  `json:"fields"`
	Truncated   Counts   `json:"truncated,omitempty"`
	Redacted    []string `json:"redacted,omitempty"`
	Cut         []string `json:"cut,omitempty"` // fields left out: nested too deep, cyclic or too long; shown as null
	UserContent []string `json:"userContent,omitempty"`
}

// Window says which part of the record view the response holds.
type Window struct {
	Offset   int  `json:"offset"`
	Limit    int  `json:"limit"`
	Returned int  `json:"returned"`
	Skipped  int  `json:"skipped,omitempty"` // records that do not fit even cut down; next is past them
	Total    int  `json:"total"`
	Next     *int `json:"next,omitempty"`
}

// Feedback is one validation error, notice or status message.
type Feedback struct {
	Level     string `json:"level"`
	Text      string `json:"text"`
	Source    string `json:"source"`
	Truncated int    `json:"truncated,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
}

// Unavailable is one action that cannot run now, with the application's
// reason. Record is empty for page-scope capabilities.
type Unavailable struct {
	Capability string `json:"capability"`
	Record     string `json:"record,omitempty"`
	Reason     string `json:"reason"`
}

// Loaded is the answer to load: the limits in force and the paths the
// bridge must read from the store (nothing else may be sent).
type Loaded struct {
	Loaded bool   `json:"loaded"`
	Limits Limits `json:"limits"`
	Reads  Reads  `json:"reads"`
}

// Reads lists what the module may be sent: whole values at Paths, and for
// each collection the item-relative paths of every item.
type Reads struct {
	Paths       []string          `json:"paths"`
	Collections []ReadsCollection `json:"collections"`
}

// ReadsCollection is an array in the store whose items are read in part.
type ReadsCollection struct {
	From  string   `json:"from"`
	Items []string `json:"items"`
}

// Observed is the answer to observe.
type Observed struct {
	Snapshot     string   `json:"snapshot"`
	Changed      bool     `json:"changed"`
	RecordsTotal int      `json:"recordsTotal"`
	Skipped      int      `json:"skipped"`
	Duplicates   int      `json:"duplicates,omitempty"` // of skipped: records sharing an id
	Cut          int      `json:"cut,omitempty"`        // declared values left out (Context.CutTotal)
	Warnings     []string `json:"warnings"`
}

// Version is the answer to version.
type Version struct {
	Version  string `json:"version"`
	Format   int    `json:"format"`
	ABI      int    `json:"abi"`
	Limits   Limits `json:"maxLimits"`
	MaxState int    `json:"maxStateBytes"`
}

// AuditEvent is one operation as the audit log keeps it: names, counts and
// sizes, never values, arguments or bodies.
type AuditEvent struct {
	Op         string   `json:"op"`
	Snapshot   string   `json:"snapshot,omitempty"`
	Error      string   `json:"error,omitempty"`
	Capability string   `json:"capability,omitempty"`
	Records    int      `json:"records,omitempty"`
	Ids        int      `json:"ids,omitempty"`
	Fields     []string `json:"fields,omitempty"`
	Redacted   int      `json:"redacted,omitempty"`
	Truncated  int      `json:"truncated,omitempty"`
	BytesIn    int      `json:"bytesIn"`
	BytesOut   int      `json:"bytesOut"`
}

// Audit is the answer to audit: the events since the last drain.
type Audit struct {
	Events  []AuditEvent `json:"events"`
	Dropped int          `json:"dropped"`
}

// Prepared is the answer to prepare: the checked request with every
// placeholder and alias in Input replaced by the real value. It is for the
// application's handler only and must never be shown to an agent.
type Prepared struct {
	OK         bool   `json:"ok"`
	Snapshot   string `json:"snapshot"`
	Capability string `json:"capability"`
	Record     string `json:"record,omitempty"`
	Input      Raw    `json:"input"`
}
