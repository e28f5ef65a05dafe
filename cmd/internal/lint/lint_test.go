package lint

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

func TestWebMCPNames(t *testing.T) {
	cases := []struct {
		name string
		want string // "" when lint has nothing to say, else a word of its message
	}{
		{"order.ship", ""},
		{"Order_ship-2.v1", ""},
		{strings.Repeat("a", 128), ""},
		{"Ship order", "not a WebMCP tool name"},
		{"order/ship", "not a WebMCP tool name"},
		{"commande.expédier", "not a WebMCP tool name"},
		{"describe_context", "describe tool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := `{"pinhole":1,"regions":[{"id":"r","description":"Orders"}],
			 "capabilities":[{"name":` + strconv.Quote(c.name) + `,"description":"Run the thing","scope":"page","region":"r"}]}`
			plan, err := manifest.Parse([]byte(m))
			if err != nil {
				t.Fatal(err)
			}
			var got []Finding
			for _, f := range Plan(plan, nil) {
				if f.At == "/capabilities/0/name" {
					got = append(got, f)
				}
			}
			switch {
			case c.want == "" && len(got) > 0:
				t.Fatalf("unexpected finding: %v", got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0].Message, c.want)):
				t.Fatalf("findings %v, want one saying %q", got, c.want)
			}
		})
	}
}

func TestStatePaths(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"r","description":"Orders"}],
	 "collections":[{"region":"r","from":"/items","id":"/id","fields":{"name":{"from":"/name"},"note":{"from":"/note","expose":"mask"}}}],
	 "state":{"s":"/ui/s"}}`
	plan, e := manifest.Parse([]byte(m))
	if e != nil {
		t.Fatal(e)
	}
	cases := []struct {
		name  string
		state string // "" for no sample state
		want  []string
	}{
		{"no sample state", "", nil},
		{"every path held", `{"items":[{"id":"a","name":"A","note":"n"},{"id":"b","name":"B"}],"ui":{"s":1}}`, nil},
		{"null values are held", `{"items":[{"id":"a","name":null,"note":null}],"ui":{"s":null}}`, nil},
		{"a store of another shape", `{"order":{"items":[]}}`, []string{"/collections/0/from", "/state/s"}},
		{"a collection that is not an array", `{"items":{"id":"a"},"ui":{"s":1}}`, []string{"/collections/0/from"}},
		{"a field no record holds", `{"items":[{"id":"a","name":"A"},{"id":"b","name":"B"}],"ui":{"s":1}}`,
			[]string{"/collections/0/fields/note/from"}},
		{"an empty collection says nothing of its fields", `{"items":[],"ui":{"s":1}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var state *jsonval.Value
			if c.state != "" {
				var err error
				if state, err = jsonval.Parse([]byte(c.state)); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, f := range Plan(plan, state) {
				if strings.Contains(f.Message, "check the path against the store") {
					got = append(got, f.At)
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("findings at %v, want %v", got, c.want)
			}
		})
	}
}
