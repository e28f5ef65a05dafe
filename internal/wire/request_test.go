package wire_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

func intp(n int) *int { return &n }

// TestRequestBuilders checks each builder's exact bytes.
func TestRequestBuilders(t *testing.T) {
	describe := func(p string) string {
		b, e := wire.DescribeRequest([]byte(p))
		if e != nil {
			t.Fatalf("DescribeRequest(%q): %v", p, e)
		}
		return string(b)
	}
	for _, c := range []struct{ name, got, want string }{
		{"load with key", string(wire.LoadRequest([]byte(`{"pinhole":1}`), `k"\`)), `{"op":"load","manifest":{"pinhole":1},"key":"k\"\\"}`},
		{"load without key", string(wire.LoadRequest([]byte(`{}`), "")), `{"op":"load","manifest":{}}`},
		{"observe", string(wire.ObserveRequest([]byte(`{"a":1}`))), `{"op":"observe","state":{"a":1}}`},
		{"observe patch", string(wire.ObservePatchRequest([]byte(`[]`))), `{"op":"observe","patch":[]}`},
		{"describe nil", describe(""), `{"op":"describe"}`},
		{"describe blank", describe(" \n"), `{"op":"describe"}`},
		{"describe empty object", describe(" { } "), `{"op":"describe"}`},
		{"describe window", describe(`{"offset":8, "limit":8}`), `{"op":"describe","offset":8, "limit":8}`},
		{"describe record", describe(`{ "record":["a"]}`), `{"op":"describe","record":["a"]}`},
		{"describe params empty", string(wire.DescribeParams{}.Request()), `{"op":"describe"}`},
		{"describe params window", string(wire.DescribeParams{Offset: intp(0), Limit: intp(3)}.Request()), `{"op":"describe","offset":0,"limit":3}`},
		{"describe params record", string(wire.DescribeParams{Record: []string{"1002", "a\"b"}}.Request()), `{"op":"describe","record":["1002","a\"b"]}`},
		{"prepare page", string(wire.PrepareParams{Capability: "orders.export"}.Request()), `{"op":"prepare","capability":"orders.export"}`},
		{"prepare record", string(wire.PrepareParams{Capability: "order.ship", Record: "SO-1", Input: []byte(`{"carrier":"ups"}`), Snapshot: "s2"}.Request()),
			`{"op":"prepare","capability":"order.ship","record":"SO-1","input":{"carrier":"ups"},"snapshot":"s2"}`},
		{"after", string(wire.AfterRequest("s1")), `{"op":"after","since":"s1"}`},
		{"audit", string(wire.AuditRequest()), `{"op":"audit"}`},
		{"version", string(wire.VersionRequest()), `{"op":"version"}`},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, c.got, c.want)
		}
	}
	for _, bad := range []string{`[]`, `"x"`, `1`, `null`} {
		if _, e := wire.DescribeRequest([]byte(bad)); e == nil || e.Code != wire.CodeInvalidRequest {
			t.Errorf("DescribeRequest(%s): %v, want invalid_request", bad, e)
		}
	}
}

// TestRequestBuildersReachTheCore drives a session with the builders only:
// every request is one the core parses and answers as intended.
func TestRequestBuildersReachTheCore(t *testing.T) {
	manifest := []byte(`{"pinhole":1,"regions":[{"id":"r","description":"R"}],
	  "collections":[{"region":"r","from":"/items","id":"/id","fields":{"phone":{"from":"/phone","expose":"alias"}}}],
	  "capabilities":[{"name":"call","description":"Call","scope":"record","region":"r",
	    "input":{"type":"object","properties":{"note":{"type":"string"}}}}]}`)
	s := session.New()
	steps := []struct {
		req  []byte
		want string // a prefix of the answer
	}{
		{wire.LoadRequest(manifest, "request-builder-test-key"), `{"loaded":true`},
		{wire.ObserveRequest([]byte(`{"items":[{"id":"a","phone":"+1 555 0100"},{"id":"b","phone":"+1 555 0101"}]}`)), `{"snapshot":"s1","changed":true`},
		{wire.ObservePatchRequest([]byte(`[{"op":"add","path":"/items/-","value":{"id":"c","phone":"+1 555 0102"}}]`)), `{"snapshot":"s2","changed":true`},
		{wire.DescribeParams{Offset: intp(1), Limit: intp(1)}.Request(), `{"snapshot":"s2"`},
		{wire.DescribeParams{Record: []string{"c"}}.Request(), `{"snapshot":"s2"`},
		{wire.PrepareParams{Capability: "call", Record: "a", Input: []byte(`{"note":"hi"}`), Snapshot: "s2"}.Request(), `{"ok":true,"snapshot":"s2","capability":"call","record":"a","input":{"note":"hi"}}`},
		{wire.AfterRequest("s1"), `{"from":"s1","to":"s2","records":{"changed":[],"added":["c"]`},
		{wire.AuditRequest(), `{"events":[`},
		{wire.VersionRequest(), `{"version":"`},
	}
	for _, st := range steps {
		out := s.Call(st.req)
		if !bytes.HasPrefix(out, []byte(st.want)) {
			t.Errorf("%s\n answered %.300s\n want prefix %s", st.req, out, st.want)
		}
	}
	req, e := wire.DescribeRequest([]byte(`{"record":["b"]}`))
	if e != nil {
		t.Fatal(e)
	}
	if out := s.Call(req); wire.DecodeError(out) != nil || !bytes.Contains(out, []byte(`"b"`)) {
		t.Errorf("describe record b: %.300s", out)
	}
}

// FuzzRequestStrings: whatever the strings, the requests are valid JSON
// and carry valid UTF-8 strings unchanged.
func FuzzRequestStrings(f *testing.F) {
	f.Add("key-0123456789abcdef", "order.ship", "SO-1", "s1")
	f.Add("\"\\\n\u2028", "\x00", "\xff", "")
	f.Fuzz(func(t *testing.T, key, capability, record, since string) {
		for _, req := range [][]byte{
			wire.LoadRequest([]byte(`{}`), key),
			wire.PrepareParams{Capability: capability, Record: record, Input: []byte(`{}`), Snapshot: since}.Request(),
			wire.DescribeParams{Record: []string{record, key}}.Request(),
			wire.AfterRequest(since),
		} {
			v, err := jsonval.Parse(req)
			if err != nil {
				t.Fatalf("%q is not JSON: %v", req, err)
			}
			for name, want := range map[string]string{"key": key, "capability": capability, "since": since} {
				if m := v.Get(name); m != nil && utf8.ValidString(want) && m.S != want {
					t.Errorf("%s: %q, want %q", name, m.S, want)
				}
			}
			if m := v.Get("record"); m != nil && m.Kind == jsonval.String && utf8.ValidString(record) && m.S != record {
				t.Errorf("record: %q, want %q", m.S, record)
			}
		}
	})
}
