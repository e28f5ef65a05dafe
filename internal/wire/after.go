package wire

// After is the answer to after: what changed between two snapshots of the
// same plan, the answer an agent gets after it acted. It is not a
// snapshot: it lists only differences, bounded like a describe, and says in
// Redescribe when the caller must describe again.
type After struct {
	From           string            `json:"from"`
	To             string            `json:"to"`
	Records        AfterRecords      `json:"records"`
	State          Members           `json:"state"`
	StateTruncated Counts            `json:"stateTruncated,omitempty"`
	StateCut       []string          `json:"stateCut,omitempty"` // state keys whose value was left out
	Capabilities   AfterCapabilities `json:"capabilities"`
	Feedback       []Feedback        `json:"feedback"`
	FeedbackTotal  int               `json:"feedbackTotal"`
	Redescribe     Redescribe        `json:"redescribe"`
}

// AfterRecords lists records whose projected fields changed (with only the
// changed fields), and the ids of records that became or stopped being
// referenceable. The totals count every such record, listed or not.
type AfterRecords struct {
	Changed      []Record `json:"changed"`
	Added        []string `json:"added"`
	Removed      []string `json:"removed"`
	ChangedTotal int      `json:"changedTotal"`
	AddedTotal   int      `json:"addedTotal"`
	RemovedTotal int      `json:"removedTotal"`
}

// AfterCapabilities lists capabilities whose availability flipped: those
// that can run now and could not before, and those that could run before
// and cannot now, with the application's reason.
type AfterCapabilities struct {
	Available   []Available   `json:"available"`
	Unavailable []Unavailable `json:"unavailable"`
}

// Available is one capability that became available, for one record when
// it has record scope.
type Available struct {
	Capability string `json:"capability"`
	Record     string `json:"record,omitempty"`
}

// Redescribe says whether the caller must run describe again, and why.
// Reasons are, in this order when they apply: navigation, modal, records,
// availability, scope, insufficient.
type Redescribe struct {
	Required bool     `json:"required"`
	Reasons  []string `json:"reasons"`
}
