package wire

import (
	"bytes"
	"strconv"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// Request builders: the requests the module parses, assembled in one place
// for every caller that drives it (the wazero host, the CLI, the Worker).
// Arguments named manifest, state, patch, input and params are JSON text
// written into the request as given; the module validates them. Strings
// (keys, names, ids) are encoded here.

// LoadRequest is {"op":"load","manifest":…,"key":…}. An empty key is left
// out, so the module draws a random session key.
func LoadRequest(manifest []byte, key string) []byte {
	req := make([]byte, 0, len(manifest)+len(key)+40)
	req = append(req, `{"op":"load","manifest":`...)
	req = append(req, manifest...)
	if key != "" {
		req = append(req, `,"key":`...)
		req = jsonval.AppendString(req, key)
	}
	return append(req, '}')
}

// ObserveRequest is {"op":"observe","state":…}: the full declared state.
func ObserveRequest(state []byte) []byte {
	return wrap(`{"op":"observe","state":`, state)
}

// ObservePatchRequest is {"op":"observe","patch":…}: a JSON Patch (RFC
// 6902) against the state last observed.
func ObservePatchRequest(patch []byte) []byte {
	return wrap(`{"op":"observe","patch":`, patch)
}

func wrap(head string, body []byte) []byte {
	req := make([]byte, 0, len(head)+len(body)+1)
	req = append(req, head...)
	req = append(req, body...)
	return append(req, '}')
}

// DescribeRequest is {"op":"describe",…} with the members of params, a
// describe request object without "op" ({}, {"offset":8,"limit":8},
// {"record":["SO-1"]}); nil or blank means {}. A params that is not an
// object is an invalid_request error.
func DescribeRequest(params []byte) ([]byte, *Error) {
	body := bytes.TrimSpace(params)
	if len(body) == 0 {
		return []byte(`{"op":"describe"}`), nil
	}
	if body[0] != '{' {
		return nil, NewError(CodeInvalidRequest, "a describe request is a JSON object", "")
	}
	rest := bytes.TrimSpace(body[1:])
	req := make([]byte, 0, len(body)+16)
	req = append(req, `{"op":"describe"`...)
	if len(rest) > 0 && rest[0] != '}' {
		req = append(req, ',')
	}
	return append(req, rest...), nil
}

// DescribeParams are a describe request built from its parameters. Offset and
// Limit are sent only when set (nil is absent, as the module defaults
// them); Record, when not empty, selects records by id instead of a window.
type DescribeParams struct {
	Offset, Limit *int
	Record        []string
}

// Request returns the describe request.
func (d DescribeParams) Request() []byte {
	req := []byte(`{"op":"describe"`)
	if d.Offset != nil {
		req = strconv.AppendInt(append(req, `,"offset":`...), int64(*d.Offset), 10)
	}
	if d.Limit != nil {
		req = strconv.AppendInt(append(req, `,"limit":`...), int64(*d.Limit), 10)
	}
	if len(d.Record) > 0 {
		req = append(req, `,"record":[`...)
		for i, id := range d.Record {
			if i > 0 {
				req = append(req, ',')
			}
			req = jsonval.AppendString(req, id) // ids are strings, even "1002"
		}
		req = append(req, ']')
	}
	return append(req, '}')
}

// PrepareParams are a prepare request: the capability to run, the record it acts
// on (empty for a page-scope capability), its input (JSON text; nil is
// absent) and the snapshot the caller decided on (empty is absent).
type PrepareParams struct {
	Capability string
	Record     string
	Input      []byte
	Snapshot   string
}

// Request returns the prepare request.
func (p PrepareParams) Request() []byte {
	req := make([]byte, 0, len(p.Input)+len(p.Capability)+len(p.Record)+len(p.Snapshot)+64)
	req = append(req, `{"op":"prepare","capability":`...)
	req = jsonval.AppendString(req, p.Capability)
	if p.Record != "" {
		req = jsonval.AppendString(append(req, `,"record":`...), p.Record)
	}
	if p.Input != nil {
		req = append(append(req, `,"input":`...), p.Input...)
	}
	if p.Snapshot != "" {
		req = jsonval.AppendString(append(req, `,"snapshot":`...), p.Snapshot)
	}
	return append(req, '}')
}

// AfterRequest is {"op":"after","since":…}: what changed since the
// snapshot the caller saw.
func AfterRequest(since string) []byte {
	return append(jsonval.AppendString([]byte(`{"op":"after","since":`), since), '}')
}

// AuditRequest is {"op":"audit"}: drain the audit queue.
func AuditRequest() []byte { return []byte(`{"op":"audit"}`) }

// VersionRequest is {"op":"version"}.
func VersionRequest() []byte { return []byte(`{"op":"version"}`) }
