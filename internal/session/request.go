package session

import (
	"strconv"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/project"
	"github.com/pinholectx/pinhole/internal/wire"
)

// UnknownParam reports a parameter the operation does not take. The name is
// the caller's text: it is quoted only when it reads as a parameter's name
// (plainName), never when it could be a value sent as a name (a card
// number, an e-mail address, an IBAN). The Worker uses it for the members
// of its request bodies.
func UnknownParam(op, name, takes string) *wire.Error {
	if !plainName(name) || expose.IsCredential(name) {
		return wire.NewError(wire.CodeInvalidRequest, op+" got an unknown parameter; "+op+" takes "+takes, "")
	}
	return wire.NewError(wire.CodeInvalidRequest, "unknown "+op+" parameter "+string(jsonval.AppendString(nil, name))+"; "+op+" takes "+takes, name)
}

// plainName reports whether name reads as a parameter's name: 1 to 64
// letters, digits, "_" and "-", starting with a letter or "_", with at
// most four digits.
func plainName(name string) bool {
	if name == "" || len(name) > 64 || !(name[0] == '_' || name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return false
	}
	digits := 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return digits <= 4
}

// parseDescribe checks a describe request object against the limits. Keys
// other than those of describe are an error, except "op" (the envelope's).
func parseDescribe(v *jsonval.Value, lim *wire.Limits) (project.Request, *wire.Error) {
	req := project.Request{Limit: lim.DefaultLimit}
	if v.Kind != jsonval.Object {
		return req, wire.NewError(wire.CodeInvalidRequest, "a describe request must be a JSON object", "")
	}
	var off, limit, record *jsonval.Value
	for i, k := range v.Keys {
		switch k {
		case "op":
		case "offset":
			off = v.Vals[i]
		case "limit":
			limit = v.Vals[i]
		case "record":
			record = v.Vals[i]
		default:
			return req, UnknownParam("describe", k, "offset, limit or record")
		}
	}
	if record != nil {
		if off != nil || limit != nil {
			return req, wire.NewError(wire.CodeRecordWithWindow, "record selects records by id and cannot be combined with offset or limit", "record")
		}
		if record.Kind != jsonval.Array {
			return req, wire.NewError(wire.CodeInvalidRequest, "record must be an array of record ids", "record")
		}
		if n := len(record.Items); n == 0 || n > lim.MaxRecordSelection {
			return req, wire.NewError(wire.CodeRecordCount, "record must hold 1 to "+strconv.Itoa(lim.MaxRecordSelection)+" ids", "record")
		}
		for i, it := range record.Items {
			id, ok := project.RecordID(it)
			if !ok {
				return req, wire.NewError(wire.CodeUnknownRecord, "record["+strconv.Itoa(i)+"] is not a referenceable record id", "record")
			}
			req.Record = append(req.Record, id)
		}
		return req, nil
	}
	if off != nil {
		f, _ := off.Float()
		if !off.IsInteger() || f < 0 || f > 1e9 {
			return req, wire.NewError(wire.CodeInvalidOffset, "offset must be a non-negative integer", "offset")
		}
		req.Offset, req.Window = int(f), true
	}
	if limit != nil {
		f, _ := limit.Float()
		if !limit.IsInteger() || f < 1 {
			return req, wire.NewError(wire.CodeInvalidRequest, "limit must be an integer from 1 to maxLimit ("+strconv.Itoa(lim.MaxLimit)+")", "limit")
		}
		if f > float64(lim.MaxLimit) {
			return req, wire.NewError(wire.CodeLimitExceedsMax, "limit exceeds maxLimit ("+strconv.Itoa(lim.MaxLimit)+"); it is never clamped", "limit")
		}
		req.Limit, req.Window = int(f), true
	}
	return req, nil
}
