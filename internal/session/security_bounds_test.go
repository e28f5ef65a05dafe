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
// however often the input repeats a token that stands for a large value.
// Without the bound, 1,000 copies of one alias (30 KB of input) of a
// 100 KB value asked for a 100 MB answer.
func TestPrepareAnswerBounded(t *testing.T) {
	const maxResponse = 65536
	manifest := `{"pinhole":1,"limits":{"maxResponseBytes":` + strconv.Itoa(maxResponse) + `},
	  "regions":[{"id":"r","description":"Records"}],
	  "collections":[{"region":"r","from":"/items","id":"/id","fields":{"big":{"from":"/big","expose":"alias"}}}],
	  "capabilities":[{"name":"send","description":"Send the list","scope":"page","region":"r",
	    "input":{"type":"object","properties":{"to":{"type":"array","items":{"type":"string"}}}}}]}`
	s := session.New()
	for _, req := range [][]byte{
		wire.LoadRequest([]byte(manifest), "bounds-test-key-0123456789"),
		wire.ObserveRequest([]byte(`{"items":[{"id":"a","big":"` + strings.Repeat("x", 100000) + `"},{"id":"b","big":"short"}]}`)),
	} {
		if out := s.Call(req); wire.DecodeError(out) != nil {
			t.Fatalf("%s", out)
		}
	}
	d := s.Call([]byte(`{"op":"describe"}`))
	aliases := regexp.MustCompile(`al_[A-Za-z0-9_-]+`).FindAllString(string(d), -1)
	if len(aliases) != 2 {
		t.Fatalf("want the two records' aliases: %.300s", d)
	}
	for _, c := range []struct {
		name   string
		copies int
		alias  string
	}{
		{"large value, many copies", 1000, aliases[0]},
		{"large value, once", 1, aliases[0]},
		{"small value, many copies", 1000, aliases[1]},
		{"small value, once", 1, aliases[1]},
		{"escapes", 1, strings.Repeat(`\u0001`, maxResponse/6+10)},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := `{"to":[` + strings.TrimSuffix(strings.Repeat(`"`+c.alias+`",`, c.copies), ",") + `]}`
			out := s.Call(wire.PrepareParams{Capability: "send", Input: []byte(input)}.Request())
			if len(out) > maxResponse {
				t.Fatalf("prepare answered %d bytes, over maxResponseBytes %d", len(out), maxResponse)
			}
			if e := wire.DecodeError(out); e != nil {
				if e.Code != wire.CodeInvalidInput || bytes.Contains(out, []byte("xxxx")) {
					t.Errorf("error %s", out)
				}
			}
		})
	}
	// Under the bound the token resolves as before.
	out := s.Call(wire.PrepareParams{Capability: "send", Input: []byte(`{"to":["` + aliases[1] + `"]}`)}.Request())
	if !bytes.Contains(out, []byte(`"input":{"to":["short"]}`)) {
		t.Errorf("small input: %s", out)
	}
}
