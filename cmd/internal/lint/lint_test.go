package lint

import (
	"strconv"
	"strings"
	"testing"

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
