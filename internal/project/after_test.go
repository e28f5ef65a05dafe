package project

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/patch"
	"github.com/pinholectx/pinhole/internal/prune"
	"github.com/pinholectx/pinhole/internal/wire"
)

const afterManifest = `{"pinhole":1,%LIMITS%
 "page":{"route":"/router/path","title":"/router/title"},
 "regions":[{"id":"orders","description":"Orders"},
            {"id":"detail","parent":"orders","activeWhen":{"path":"/ui/detailOpen","eq":true}}],
 "collections":[{"region":"orders","from":"/orders/items","id":"/number","fields":{
    "status":{"from":"/status"},
    "customer":{"from":"/customer/name","maxChars":5},
    "email":{"from":"/customer/email","expose":"mask"},
    "phone":{"from":"/customer/phone","expose":"alias"},
    "note":{"from":"/note","content":"user"}}}],
 "state":{"filter":"/orders/filter","sort":"/orders/sort"},
 "feedback":{"from":"/ui/toasts","text":"/message","level":"/kind","source":"/origin"},
 "capabilities":[
   {"name":"order.ship","description":"Ship","scope":"record","region":"orders",
    "unavailable":[{"when":{"field":"/status","ne":"Ready"},"reason":"Only ready orders can be shipped"}]},
   {"name":"orders.export","description":"Export","scope":"page","region":"orders",
    "unavailable":[{"when":{"path":"/session/role","ne":"manager"},"reason":"Only managers can export"}]},
   {"name":"order.refund","description":"Refund","scope":"page","region":"detail",
    "unavailable":[{"when":{"path":"/session/role","ne":"manager"},"reason":"Only managers can refund"}]}],
 "redescribeOn":["/orders/filter","/orders/sort"],
 "sessionScope":"/session/tenant"}`

type obj = map[string]any

// baseState is a store with n orders SO-1..SO-n; odd ones are Ready.
func baseState(n int) obj {
	items := []any{}
	for i := 1; i <= n; i++ {
		status := "Open"
		if i%2 == 1 {
			status = "Ready"
		}
		items = append(items, obj{"number": "SO-" + strconv.Itoa(i), "status": status,
			"customer": obj{"name": "Lin", "email": "lin@example.com", "phone": "+1 555 0100"},
			"note":     "n", "secret": "UNDECLARED"})
	}
	return obj{
		"router":  obj{"path": "/orders", "title": "Orders"},
		"session": obj{"tenant": "t1", "role": "clerk", "token": "UNDECLARED"},
		"ui":      obj{"detailOpen": false, "toasts": []any{obj{"message": "Welcome", "kind": "info", "origin": "app"}}},
		"orders":  obj{"filter": "all", "sort": "number", "items": items},
	}
}

func orderAt(st obj, i int) obj { return st["orders"].(obj)["items"].([]any)[i].(obj) }

// clone deep-copies a test state through JSON.
func clone(t *testing.T, st obj) obj {
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var out obj
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func afterPlan(t *testing.T, limits string) *manifest.Plan {
	if limits != "" {
		limits = `"limits":` + limits + `,`
	}
	plan, err := manifest.Parse([]byte(strings.Replace(afterManifest, "%LIMITS%", limits, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func build(t *testing.T, plan *manifest.Plan, st obj) *Snapshot {
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonval.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return Build(plan, prune.FromReads(plan.Reads).State(v), nil)
}

var testKeyer = expose.NewKeyer([]byte("after-test-key-0123456789"))

const emptyRest = `"state":{},"capabilities":{"available":[],"unavailable":[]},"feedback":[],"feedbackTotal":0,"redescribe":{"required":false,"reasons":[]}}`

func noRecords() string {
	return `"records":{"changed":[],"added":[],"removed":[],"changedTotal":0,"addedTotal":0,"removedTotal":0},`
}

func TestAfter(t *testing.T) {
	alias := func(s string) string { return testKeyer.Alias(jsonval.NewString(s)) }
	cases := []struct {
		name   string
		n      int // orders in the base state
		limits string
		change func(st obj)
		want   string
	}{
		{"nothing changed", 3, "", func(obj) {}, `{"from":"s1","to":"s2",` + noRecords() + emptyRest},
		{"undeclared changes are invisible", 3, "", func(st obj) {
			orderAt(st, 0)["secret"] = "OTHER"
			st["session"].(obj)["token"] = "OTHER"
		}, `{"from":"s1","to":"s2",` + noRecords() + emptyRest},
		{"ship one order", 3, "", func(st obj) {
			orderAt(st, 0)["status"] = "Shipped"
			st["ui"].(obj)["toasts"] = []any{obj{"message": "Welcome", "kind": "info", "origin": "app"},
				obj{"message": "Order shipped", "kind": "success", "origin": "app"}}
		}, `{"from":"s1","to":"s2","records":{"changed":[{"id":"SO-1","region":"orders","fields":{"status":"Shipped"}}],` +
			`"added":[],"removed":[],"changedTotal":1,"addedTotal":0,"removedTotal":0},"state":{},` +
			`"capabilities":{"available":[],"unavailable":[{"capability":"order.ship","record":"SO-1","reason":"Only ready orders can be shipped"}]},` +
			`"feedback":[{"level":"success","text":"Order shipped","source":"app"}],"feedbackTotal":1,"redescribe":{"required":false,"reasons":[]}}`},
		{"projection rules for changed fields", 2, "", func(st obj) {
			c := orderAt(st, 1)["customer"].(obj)
			c["email"] = "lou@example.com"   // same mask: not a visible change
			c["phone"] = "+1 555 0199"       // new alias
			c["name"] = "Alexandra"          // cut at maxChars 5
			orderAt(st, 1)["note"] = "hello" // user content
			delete(orderAt(st, 0), "note")   // gone: null
		}, `{"from":"s1","to":"s2","records":{"changed":[` +
			`{"id":"SO-1","region":"orders","fields":{"note":null}},` +
			`{"id":"SO-2","region":"orders","fields":{"customer":"Alexa","phone":"` + alias("+1 555 0199") + `","note":"hello"},"truncated":{"customer":9},"userContent":["note"]}],` +
			`"added":[],"removed":[],"changedTotal":2,"addedTotal":0,"removedTotal":0},` + emptyRest},
		{"records added and removed keep order", 4, "", func(st obj) {
			items := st["orders"].(obj)["items"].([]any)
			n5 := clone(t, orderAt(st, 0))
			n5["number"] = "SO-5"
			st["orders"].(obj)["items"] = []any{items[0], n5, items[2], items[3]}
		}, `{"from":"s1","to":"s2","records":{"changed":[],"added":["SO-5"],"removed":["SO-2"],"changedTotal":0,"addedTotal":1,"removedTotal":1},` + emptyRest},
		{"reordered records", 3, "", func(st obj) {
			items := st["orders"].(obj)["items"].([]any)
			st["orders"].(obj)["items"] = []any{items[2], items[0], items[1]}
		}, `{"from":"s1","to":"s2",` + noRecords() + strings.Replace(emptyRest, `"required":false,"reasons":[]`, `"required":true,"reasons":["records"]`, 1)},
		{"filter and sort change", 3, "", func(st obj) {
			st["orders"].(obj)["filter"] = "ready"
			st["orders"].(obj)["items"] = []any{orderAt(st, 0), orderAt(st, 2)}
		}, `{"from":"s1","to":"s2","records":{"changed":[],"added":[],"removed":["SO-2"],"changedTotal":0,"addedTotal":0,"removedTotal":1},` +
			`"state":{"filter":"ready"},"capabilities":{"available":[],"unavailable":[]},"feedback":[],"feedbackTotal":0,` +
			`"redescribe":{"required":true,"reasons":["records"]}}`},
		{"state key removed is null", 1, "", func(st obj) {
			delete(st["orders"].(obj), "sort")
		}, `{"from":"s1","to":"s2",` + noRecords() + `"state":{"sort":null},"capabilities":{"available":[],"unavailable":[]},"feedback":[],"feedbackTotal":0,` +
			`"redescribe":{"required":true,"reasons":["records"]}}`},
		{"navigation, modal and scope", 1, "", func(st obj) {
			st["router"].(obj)["title"] = "Order SO-1"
			st["ui"].(obj)["detailOpen"] = true
			st["session"].(obj)["tenant"] = "t2"
		}, `{"from":"s1","to":"s2",` + noRecords() + strings.Replace(emptyRest, `"required":false,"reasons":[]`,
			`"required":true,"reasons":["navigation","modal","scope"]`, 1)},
		{"a few availability flips", 3, "", func(st obj) {
			st["session"].(obj)["role"] = "manager"
			orderAt(st, 1)["status"] = "Ready"
		}, `{"from":"s1","to":"s2","records":{"changed":[{"id":"SO-2","region":"orders","fields":{"status":"Ready"}}],` +
			`"added":[],"removed":[],"changedTotal":1,"addedTotal":0,"removedTotal":0},"state":{},` +
			`"capabilities":{"available":[{"capability":"orders.export"},{"capability":"order.ship","record":"SO-2"}],"unavailable":[]},` +
			`"feedback":[],"feedbackTotal":0,"redescribe":{"required":false,"reasons":[]}}`},
		{"broad availability change", 12, "", func(st obj) {
			for i := 0; i < 12; i += 2 {
				orderAt(st, i)["status"] = "Shipped"
			}
		}, `{"from":"s1","to":"s2","records":{"changed":[` + func() string {
			var b []string
			for i := 1; i <= 12; i += 2 {
				b = append(b, `{"id":"SO-`+strconv.Itoa(i)+`","region":"orders","fields":{"status":"Shipped"}}`)
			}
			return strings.Join(b, ",")
		}() + `],"added":[],"removed":[],"changedTotal":6,"addedTotal":0,"removedTotal":0},"state":{},"capabilities":{"available":[],"unavailable":[` + func() string {
			var b []string
			for i := 1; i <= 12; i += 2 {
				b = append(b, `{"capability":"order.ship","record":"SO-`+strconv.Itoa(i)+`","reason":"Only ready orders can be shipped"}`)
			}
			return strings.Join(b, ",")
		}() + `]},"feedback":[],"feedbackTotal":0,"redescribe":{"required":true,"reasons":["availability"]}}`},
		{"lists cut to their bounds", 4, `{"defaultLimit":1,"maxLimit":2,"maxRecordIds":1,"maxUnavailable":1,"maxFeedback":1}`, func(st obj) {
			for i := 0; i < 4; i++ {
				orderAt(st, i)["note"] = "changed"
			}
			items := st["orders"].(obj)["items"].([]any)
			a, b := clone(t, orderAt(st, 0)), clone(t, orderAt(st, 0))
			a["number"], b["number"] = "SO-8", "SO-9"
			st["orders"].(obj)["items"] = append(items, a, b)
			orderAt(st, 0)["status"], orderAt(st, 2)["status"] = "Open", "Open"
			st["ui"].(obj)["toasts"] = []any{obj{"message": "x", "kind": "error"}, obj{"message": "y", "kind": "bogus", "origin": "server"}}
		}, `{"from":"s1","to":"s2","records":{"changed":[` +
			`{"id":"SO-1","region":"orders","fields":{"status":"Open","note":"changed"},"userContent":["note"]},` +
			`{"id":"SO-2","region":"orders","fields":{"note":"changed"},"userContent":["note"]}],` +
			`"added":["SO-8"],"removed":[],"changedTotal":4,"addedTotal":2,"removedTotal":0},"state":{},` +
			`"capabilities":{"available":[],"unavailable":[{"capability":"order.ship","record":"SO-1","reason":"Only ready orders can be shipped"}]},` +
			`"feedback":[{"level":"error","text":"x","source":"unknown"}],"feedbackTotal":2,"redescribe":{"required":true,"reasons":["insufficient"]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan := afterPlan(t, c.limits)
			st := baseState(c.n)
			from := build(t, plan, st)
			st2 := clone(t, st)
			c.change(st2)
			to := build(t, plan, st2)
			got, e := After(from, to, testKeyer, "s1", "s2", new(Stats))
			if e != nil {
				t.Fatal(e)
			}
			if string(got) != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			if strings.Contains(string(got), "UNDECLARED") || strings.Contains(string(got), "555") ||
				strings.Contains(string(got), "lou@") {
				t.Fatal("an undeclared or protected value leaked")
			}
		})
	}
}

func TestAfterFeedbackIsAMultiset(t *testing.T) {
	plan := afterPlan(t, "")
	st := baseState(1)
	toast := func(m string) obj { return obj{"message": m, "kind": "info", "origin": "app"} }
	st["ui"].(obj)["toasts"] = []any{toast("A"), toast("A"), toast("B")}
	from := build(t, plan, st)
	st["ui"].(obj)["toasts"] = []any{toast("B"), toast("A"), toast("A"), toast("A"), obj{"message": "B", "kind": "error", "origin": "app"}}
	got, e := After(from, build(t, plan, st), testKeyer, "s1", "s2", new(Stats))
	if e != nil {
		t.Fatal(e)
	}
	want := `"feedback":[{"level":"info","text":"A","source":"app"},{"level":"error","text":"B","source":"app"}],"feedbackTotal":2,`
	if !strings.Contains(string(got), want) {
		t.Fatalf("got %s", got)
	}
}

func TestAfterFitsResponseBytes(t *testing.T) {
	plan := afterPlan(t, `{"maxResponseBytes":4096,"maxFieldChars":1000}`)
	st := baseState(20)
	from := build(t, plan, st)
	for i := 0; i < 20; i++ {
		orderAt(st, i)["note"] = strings.Repeat("x", 900)
	}
	got, e := After(from, build(t, plan, st), testKeyer, "s1", "s2", new(Stats))
	if e != nil {
		t.Fatal(e)
	}
	if len(got) > 4096 {
		t.Fatalf("after is %d bytes", len(got))
	}
	var a struct {
		Records struct {
			Changed      []json.RawMessage `json:"changed"`
			ChangedTotal int               `json:"changedTotal"`
		} `json:"records"`
		Redescribe wire.Redescribe `json:"redescribe"`
	}
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatal(err)
	}
	// As many records as fit: all are the same size, one more would not.
	n := len(a.Records.Changed)
	if n == 0 || len(got)+len(a.Records.Changed[0])+1 <= 4096 || a.Records.ChangedTotal != 20 ||
		!a.Redescribe.Required || strings.Join(a.Redescribe.Reasons, ",") != "insufficient" {
		t.Fatalf("changed %d of %d, redescribe %+v", len(a.Records.Changed), a.Records.ChangedTotal, a.Redescribe)
	}
}

func TestAfterAcrossManifests(t *testing.T) {
	st := baseState(1)
	from := build(t, afterPlan(t, ""), st)
	to := build(t, afterPlan(t, ""), st)
	if _, e := After(from, to, testKeyer, "s1", "s2", new(Stats)); e == nil || e.Code != wire.CodeStaleSnapshot {
		t.Fatalf("got %v, want stale_snapshot", e)
	}
}

func BenchmarkAfterOneChangeOf10000(b *testing.B) {
	plan, err := manifest.Parse([]byte(strings.Replace(afterManifest, "%LIMITS%", "", 1)))
	if err != nil {
		b.Fatal(err)
	}
	st := baseState(10000)
	js, _ := json.Marshal(st)
	v, _ := jsonval.Parse(js)
	from := Build(plan, prune.FromReads(plan.Reads).State(v), nil)
	orderAt(st, 5000)["status"] = "Shipped"
	js, _ = json.Marshal(st)
	v, _ = jsonval.Parse(js)
	to := Build(plan, prune.FromReads(plan.Reads).State(v), nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, e := After(from, to, testKeyer, "s1", "s2", new(Stats)); e != nil {
			b.Fatal(e)
		}
	}
}

// A patched state shares the items it did not touch; a rule that reads a
// store path must still be judged again for them.
func TestAfterSharedItems(t *testing.T) {
	plan, err := manifest.Parse([]byte(`{"pinhole":1,"regions":[{"id":"r"}],
	 "collections":[{"region":"r","from":"/items","id":"/id","fields":{"s":{"from":"/s"}}}],
	 "capabilities":[
	  {"name":"hold","description":"Hold","scope":"record","region":"r",
	   "unavailable":[{"when":{"any":[{"path":"/role","ne":"manager"},{"field":"/s","eq":"done"}]},"reason":"Managers hold open items"}]},
	  {"name":"peek","description":"Peek","scope":"record","region":"r",
	   "unavailable":[{"when":{"field":"/s","eq":"done"},"reason":"Done"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := jsonval.Parse([]byte(`{"role":"clerk","items":[{"id":1,"s":"open"},{"id":2,"s":"done"},{"id":3,"s":"open"}]}`))
	from := Build(plan, prune.FromReads(plan.Reads).State(root), nil)
	ops, _ := jsonval.Parse([]byte(`[{"op":"replace","path":"/role","value":"manager"},{"op":"replace","path":"/items/2/s","value":"done"}]`))
	next, perr := patch.Apply(from.Root, ops)
	if perr != nil {
		t.Fatal(perr)
	}
	to := Build(plan, next, from)
	if to.Item(&to.Records[0]) != from.Item(&from.Records[0]) {
		t.Fatal("the test needs a shared item")
	}
	got, e := After(from, to, testKeyer, "s1", "s2", new(Stats))
	if e != nil {
		t.Fatal(e)
	}
	want := `{"from":"s1","to":"s2","records":{"changed":[{"id":"3","region":"r","fields":{"s":"done"}}],"added":[],"removed":[],` +
		`"changedTotal":1,"addedTotal":0,"removedTotal":0},"state":{},"capabilities":{"available":[{"capability":"hold","record":"1"}],` +
		`"unavailable":[{"capability":"peek","record":"3","reason":"Done"}]},"feedback":[],"feedbackTotal":0,"redescribe":{"required":false,"reasons":[]}}`
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func BenchmarkAfterPatchedOneChangeOf10000(b *testing.B) {
	plan, err := manifest.Parse([]byte(strings.Replace(afterManifest, "%LIMITS%", "", 1)))
	if err != nil {
		b.Fatal(err)
	}
	js, _ := json.Marshal(baseState(10000))
	v, _ := jsonval.Parse(js)
	from := Build(plan, prune.FromReads(plan.Reads).State(v), nil)
	ops, _ := jsonval.Parse([]byte(`[{"op":"replace","path":"/orders/items/5000/status","value":"Shipped"}]`))
	next, perr := patch.Apply(from.Root, ops)
	if perr != nil {
		b.Fatal(perr)
	}
	to := Build(plan, next, from)
	b.ReportAllocs()
	for b.Loop() {
		if _, e := After(from, to, testKeyer, "s1", "s2", new(Stats)); e != nil {
			b.Fatal(e)
		}
	}
}

// A record that moves to another collection shows all its fields there.
func TestAfterRecordChangesCollection(t *testing.T) {
	plan, err := manifest.Parse([]byte(`{"pinhole":1,"regions":[{"id":"inbox"},{"id":"archive"}],
	 "collections":[{"region":"inbox","from":"/inbox","id":"/id","fields":{"s":{"from":"/s"}}},
	                {"region":"archive","from":"/archive","id":"/id","fields":{"s":{"from":"/s"},"when":{"from":"/when"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	parse := func(s string) *Snapshot {
		v, err := jsonval.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return Build(plan, prune.FromReads(plan.Reads).State(v), nil)
	}
	from := parse(`{"inbox":[{"id":"m1","s":"new"},{"id":"m2","s":"new"}],"archive":[]}`)
	to := parse(`{"inbox":[{"id":"m2","s":"new"}],"archive":[{"id":"m1","s":"new"}]}`)
	got, e := After(from, to, testKeyer, "s1", "s2", new(Stats))
	if e != nil {
		t.Fatal(e)
	}
	want := `{"from":"s1","to":"s2","records":{"changed":[{"id":"m1","region":"archive","fields":{"s":"new"}}],"added":[],"removed":[],` +
		`"changedTotal":1,"addedTotal":0,"removedTotal":0},` +
		// The view order is by collection: m1 now comes after m2.
		strings.Replace(emptyRest, `"required":false,"reasons":[]`, `"required":true,"reasons":["records"]`, 1)
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// A value that becomes too deep to keep shows in after as cut, in a record
// and in the state, never as the value.
func TestAfterShowsCutValues(t *testing.T) {
	plan := afterPlan(t, "")
	st := baseState(2)
	from := build(t, plan, st)
	to := clone(t, st)
	var deep any = 1
	for i := 0; i < 70; i++ {
		deep = obj{"k": deep}
	}
	orderAt(to, 0)["note"] = deep
	to["orders"].(obj)["sort"] = deep
	out, e := After(from, build(t, plan, to), testKeyer, "s1", "s2", &Stats{})
	if e != nil {
		t.Fatal(e)
	}
	for _, want := range []string{`"changed":[{"id":"SO-1","region":"orders","fields":{"note":null},"cut":["note"],"userContent":["note"]}]`,
		`"state":{"sort":null},"stateCut":["sort"]`} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("want %s in %s", want, out)
		}
	}
}
