package project

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/manifest"
)

// netManifest declares one of each place a string of the store can leave
// through: a plain field, a composite field (its keys and strings), a
// masked field, the record id, a state value, a composite state value, the
// page route, title and a param, and feedback.
const netManifest = `{"pinhole":1,"limits":{"maxFieldChars":4096},
 "page":{"route":"/router/path","title":"/router/title","params":{"from":"/router/query","allow":["q"]}},
 "regions":[{"id":"orders","description":"Orders"}],
 "collections":[{"region":"orders","from":"/orders","id":"/id","fields":{
    "name":{"from":"/name"},
    "meta":{"from":"/meta"},
    "email":{"from":"/email","expose":"mask"}}}],
 "state":{"filter":"/ui/filter","view":"/ui/view"},
 "feedback":{"from":"/ui/toasts","text":"/message"}}`

// disguised are secrets in the forms the review found passing the net:
// after "=", in a route segment, in fullwidth letters, split by invisible
// characters the module strips, a JWT wrapped at its dots, an env line.
var disguised = []struct{ name, value, core string }{
	{"after equals", "key=ghp_R8fKq2LmZ0xW7vTn4YcB9sHd1JpE6uGa3Qo5", "R8fKq2LmZ0xW7vTn"},
	{"route segment", "/invite/ghp_Zt3nQ8wLk1Vx5bR9mC2yH7dJ4pF6sA0gE1Ku/accept", "Zt3nQ8wLk1Vx5bR9"},
	{"fullwidth", "ｇｈｐ＿Ｋ４ｍＴ９ｑＬ２ｘＷ７ｖＢｎ３ＹｃＲ８ｓＨｄ１ＪｐＥ６ｕＧａ０Ｑｏ５Ｚ", "K4mT9qL2xW7vBn3Y"},
	{"hangul filler", "sk_live_51Hx8kQ2eZvKY\u3164lo2C0aBcD\u115feFgHiJ4kLmNoPq", "lo2C0aBcD"},
	{"variation selector", "AKIAQ3\ufe0fZKK5821W\U000e0100KC6DPA", "ZKK5821W"},
	{"jwt wrapped", "eyJhbGciOiJIUzI1NiJ9\n.eyJzdWIiOiJ1c2VyLTQ3MTEifQ\n.c2LufYNuydk9sgEWl2agE4aE", "c2LufYNuydk9sgEW"},
	{"env line", "STRIPE_KEY=rk_live_51Qm7TzVbN2cXw8LpR4sK9dHf", "51Qm7TzVbN2cXw8L"},
	{"url query", "https://api.example.com/v1/orders?access_token=Zm9vYmFyYmF6cXV4MTIz_NDU2Nzg5MGFi", "Zm9vYmFyYmF6cXV4"},
}

// readable folds fullwidth letters and removes the invisible characters
// Clean removes, so a leak is found however it is spelled.
func readable(s string) string {
	var b strings.Builder
	for _, r := range expose.Clean(s) {
		if r >= 0xff01 && r <= 0xff5e {
			r -= 0xfee0
		}
		b.WriteRune(r)
	}
	return b.String()
}

func netState(secret string) obj {
	return obj{
		"router": obj{"path": secret, "title": secret, "query": obj{"q": secret}},
		"orders": []any{
			obj{"id": "SO-1", "name": secret, "meta": obj{"note": secret}, "email": secret},
			obj{"id": "SO-2", "name": "Lin", "meta": obj{secret: 1}},
			obj{"id": secret, "name": "Lou"},
		},
		"ui": obj{"filter": secret, "view": []any{"list", secret}, "toasts": []any{obj{"message": secret}}},
	}
}

// TestNetEverywhere: each disguised secret, put in every place a string
// leaves through, reaches no describe and no after; every place that held
// it is redacted or, for the id, unreferenceable.
func TestNetEverywhere(t *testing.T) {
	plan, err := manifest.Parse([]byte(netManifest))
	if err != nil {
		t.Fatal(err)
	}
	k := expose.NewKeyer([]byte("net-test-key-0123456789"))
	clean := build(t, plan, netState("Orders"))
	for _, d := range disguised {
		if !expose.IsCredential(d.value) {
			t.Errorf("%s: the net misses %q", d.name, d.value)
			continue
		}
		s := build(t, plan, netState(d.value))
		var st Stats
		out, werr := s.Describe("s2", Request{Limit: 10}, k, &st)
		if werr != nil {
			t.Fatalf("%s: describe: %v", d.name, werr)
		}
		if strings.Contains(readable(string(out)), d.core) {
			t.Fatalf("%s: describe shows the secret: %s", d.name, out)
		}
		var resp struct {
			Context struct {
				Page struct {
					Route, Title string
					Params       map[string]any
				}
				RecordIds []string `json:"recordIds"`
				Records   []struct {
					ID       string
					Fields   map[string]any
					Redacted []string
				}
				State    map[string]any
				Feedback []struct {
					Text     string
					Redacted bool
				}
			}
		}
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatal(err)
		}
		c := resp.Context
		if c.Page.Route != expose.Redacted || c.Page.Title != expose.Redacted || c.Page.Params["q"] != expose.Redacted {
			t.Errorf("%s: page %+v", d.name, c.Page)
		}
		if strings.Join(c.RecordIds, ",") != "SO-1,SO-2" {
			t.Errorf("%s: record ids %v: the secret id must not be referenceable", d.name, c.RecordIds)
		}
		r0, r1 := c.Records[0], c.Records[1]
		// The masked field shows the mask that hides all (not "[redacted]",
		// which would tell that the hidden value is key-shaped).
		if r0.Fields["name"] != expose.Redacted || r0.Fields["meta"] != expose.Redacted || r0.Fields["email"] != "•••" ||
			strings.Join(r0.Redacted, ",") != "name,meta" {
			t.Errorf("%s: record %+v", d.name, r0)
		}
		if r1.Fields["meta"] != expose.Redacted { // the secret is an object key
			t.Errorf("%s: composite with a secret key: %+v", d.name, r1)
		}
		if c.State["filter"] != expose.Redacted || c.State["view"] != expose.Redacted {
			t.Errorf("%s: state %v", d.name, c.State)
		}
		if len(c.Feedback) != 1 || c.Feedback[0].Text != expose.Redacted || !c.Feedback[0].Redacted {
			t.Errorf("%s: feedback %+v", d.name, c.Feedback)
		}
		after, werr := After(clean, s, k, "s1", "s2", &st)
		if werr != nil {
			t.Fatalf("%s: after: %v", d.name, werr)
		}
		if strings.Contains(readable(string(after)), d.core) {
			t.Fatalf("%s: after shows the secret: %s", d.name, after)
		}
	}
}

// TestInvisiblesNeverLeave: every class of invisible character the review
// found surviving is stripped from every place a string leaves through,
// and an id holding one is not referenceable.
func TestInvisiblesNeverLeave(t *testing.T) {
	plan, err := manifest.Parse([]byte(netManifest))
	if err != nil {
		t.Fatal(err)
	}
	k := expose.NewKeyer([]byte("net-test-key-0123456789"))
	for _, r := range []rune{0x034F, 0xFE0F, 0xE0100, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x180B, 0x180F, 0x00AD, 0x2065, 0xFFF0, 0x1D173, 0xE0FFF} {
		text := "Ship" + string(r) + "to"
		s := build(t, plan, netState(text))
		var st Stats
		out, werr := s.Describe("s1", Request{Limit: 10}, k, &st)
		if werr != nil {
			t.Fatalf("U+%04X: describe: %v", r, werr)
		}
		if strings.ContainsRune(string(out), r) {
			t.Errorf("U+%04X reaches the describe answer: %s", r, out)
		}
		if strings.Count(string(out), "Shipto") < 9 {
			t.Errorf("U+%04X: the text around it is not kept everywhere: %s", r, out)
		}
		if strings.Contains(string(out), `"recordIds":["SO-1","SO-2"]`) == false {
			t.Errorf("U+%04X: an id holding it is referenceable: %s", r, out)
		}
	}
}
