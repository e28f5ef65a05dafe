package lint

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

func TestPathFindings(t *testing.T) {
	m := `{"pinhole":1,
	 "page":{"route":"/router/path"},
	 "regions":[{"id":"r","description":"Orders"},
	            {"id":"d","description":"Detail","activeWhen":{"path":"/ui/open","eq":true}}],
	 "collections":[{"region":"r","from":"/items","id":"/id","fields":{"name":{"from":"/name"},"note":{"from":"/note","expose":"mask"},
	                 "city":{"from":"/customer/city"},"tag":{"from":"/tags/0"}}},
	                {"region":"d","from":"/detail/lines","id":"/n","fields":{"qty":{"from":"/qty"}}}],
	 "state":{"s":"/ui/s","first":"/ui/picked/0"}, "sessionScope":"/session/tenant",
	 "feedback":{"from":"/toasts","text":"/text"}}`
	plan, e := manifest.Parse([]byte(m))
	if e != nil {
		t.Fatal(e)
	}
	const whole = `"router":{"path":"/o"},"ui":{"s":1,"picked":["a"]},"toasts":[],"session":{"tenant":"t"}`
	cases := []struct {
		name  string
		state string // "" for no sample state
		want  []string
	}{
		{"no sample state", "", nil},
		{"every path held", `{"items":[{"id":"a","name":"A","note":"n","customer":{"city":"C"},"tags":["x"]},{"id":"b","name":"B"}],` + whole + `}`, nil},
		{"what a sample cannot judge: nulls, short arrays", `{"items":[{"id":"a","name":null,"note":null,"customer":null,"tags":[]}],` +
			`"router":null,"ui":{"s":null,"picked":[]},"toasts":null,"session":{"tenant":null}}`, nil},
		{"an empty or null collection says nothing of its records", `{"items":null,` + whole + `}`, nil},
		{"a session scope under a null is absent: the module withholds", `{"items":[],"router":{"path":"/o"},"ui":{"s":1,"picked":["a"]},"toasts":[],"session":null}`,
			[]string{"/sessionScope"}},
		{"a store of another shape", `{"order":{"items":[]}}`,
			[]string{"/page/route", "/collections/0/from", "/state/s", "/state/first", "/feedback/from", "/sessionScope"}},
		{"a collection that is not an array", `{"items":{"id":"a"},` + whole + `}`, []string{"/collections/0/from"}},
		{"a scalar where the path goes deeper", `{"items":"x","router":"r",` + whole[len(`"router":{"path":"/o"},`):] + `}`,
			[]string{"/page/route", "/collections/0/from"}},
		{"an id and fields no record has", `{"items":[{"ID":"a","name":"A","customer":{"town":"T"},"tags":{"first":"x"}},{"ID":"b"}],` + whole + `}`,
			[]string{"/collections/0/id", "/collections/0/fields/note/from", "/collections/0/fields/city/from", "/collections/0/fields/tag/from"}},
		{"an inactive region's collection is not judged", `{"items":[],` + whole + `,"detail":{}}`, nil},
		{"an active one is", `{"items":[],"router":{"path":"/o"},"ui":{"s":1,"picked":["a"],"open":true},"toasts":[],"session":{"tenant":"t"},"detail":{}}`,
			[]string{"/collections/1/from"}},
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
			for _, f := range Paths(plan, state) {
				if !strings.Contains(f.Message, "; check the path against the store") {
					t.Errorf("finding %v gives no advice", f)
				}
				got = append(got, f.At)
			}
			for _, f := range Plan(plan, state) {
				if strings.Contains(f.Message, "check the path") {
					t.Errorf("Plan has a path finding: %v", f)
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("findings at %v, want %v", got, c.want)
			}
		})
	}
}
