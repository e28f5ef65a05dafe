package session_test

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// TestPrepareAnswerBounded: a prepare answer is at most maxResponseBytes,
// however many token slots the capability declares for a large value.
// Without the bound, 1,000 slots holding the alias of one 100 KB value (30
// KB of input) asked for a 100 MB answer.
func TestPrepareAnswerBounded(t *testing.T) {
	const maxResponse = 65536
	const slots = 1000
	props := make([]string, slots)
	for i := range props {
		props[i] = `"p` + strconv.Itoa(i) + `":{"type":"string","x-pinhole-token":{"field":"big"}}`
	}
	manifest := `{"pinhole":1,"limits":{"maxResponseBytes":` + strconv.Itoa(maxResponse) + `},
	  "regions":[{"id":"r","description":"Records"}],
	  "collections":[{"region":"r","from":"/items","id":"/id","fields":{"big":{"from":"/big","expose":"alias"}}}],
	  "capabilities":[{"name":"send","description":"Send the record","scope":"record","region":"r",
	    "input":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}]}`
	s := session.New()
	for _, req := range [][]byte{
		wire.LoadRequest([]byte(manifest), "bounds-test-key-0123456789"),
		wire.ObserveRequest([]byte(`{"items":[{"id":"a","big":"` + strings.Repeat("x", 100000) + `"},{"id":"b","big":"short"},{"id":"c","big":"` + strings.Repeat(`\u0001`, maxResponse/6+10) + `"}]}`)),
	} {
		if out := s.Call(req); wire.DecodeError(out) != nil {
			t.Fatalf("%.300s", out)
		}
	}
	alias := map[string]string{}
	for _, id := range []string{"a", "b", "c"} {
		d := s.Call([]byte(`{"op":"describe","record":["` + id + `"]}`))
		if alias[id] = regexp.MustCompile(`al_[A-Za-z0-9_-]+`).FindString(string(d)); alias[id] == "" {
			t.Fatalf("no alias for %s: %.300s", id, d)
		}
	}
	input := func(record string, n int) []byte {
		members := make([]string, n)
		for i := range members {
			members[i] = `"p` + strconv.Itoa(i) + `":"` + alias[record] + `"`
		}
		return []byte("{" + strings.Join(members, ",") + "}")
	}
	for _, c := range []struct {
		name   string
		record string
		slots  int
	}{
		{"large value in every slot", "a", slots},
		{"large value once", "a", 1},
		{"small value in every slot", "b", slots},
		{"control characters, escaped six times longer", "c", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := s.Call(wire.PrepareParams{Capability: "send", Record: c.record, Input: input(c.record, c.slots)}.Request())
			if len(out) > maxResponse {
				t.Fatalf("prepare answered %d bytes, over maxResponseBytes %d", len(out), maxResponse)
			}
			if e := wire.DecodeError(out); e != nil && (e.Code != wire.CodeInvalidInput || bytes.Contains(out, []byte("xxxx"))) {
				t.Errorf("error %s", out)
			}
		})
	}
	// Under the bound the slots resolve as before.
	out := s.Call(wire.PrepareParams{Capability: "send", Record: "b", Input: input("b", 3)}.Request())
	if !bytes.Contains(out, []byte(`"input":{"p0":"short","p1":"short","p2":"short"}`)) {
		t.Errorf("small input: %s", out)
	}
}
