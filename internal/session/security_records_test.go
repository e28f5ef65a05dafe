package session_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

// Guarantees about records that are malformed or hostile: one bad record
// costs that record (or that value), never the context; duplicate ids name
// nothing; inactive capabilities cannot be told from unknown ones; a pager
// always advances.

const recordsManifest = `{"pinhole":1,"limits":{"maxResponseBytes":4096,"maxFieldChars":8192,"maxRecordIds":10000},
 "regions":[{"id":"list"},{"id":"panel","parent":"list","activeWhen":{"path":"/open","eq":true}}],
 "collections":[{"region":"list","from":"/items","id":"/id","fields":{"name":{"from":"/name"},"meta":{"from":"/meta"},
  "phone":{"from":"/phone","expose":"alias"},"a":{"from":"/a"},"b":{"from":"/b"},"c":{"from":"/c"}}}],
 "state":{"filter":"/filter","deep":"/deep"},
 "capabilities":[{"name":"item.open","description":"Open","scope":"record","region":"list"},
  {"name":"item.refund","description":"Refund","scope":"record","region":"panel"},
  {"name":"panel.close","description":"Close","scope":"page","region":"panel"}]}`

const ghpKey = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"

// call runs one request and decodes the answer.
func call(t *testing.T, s *session.Session, req string) (map[string]any, string) {
	t.Helper()
	out := s.Call([]byte(req))
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%s: answer is not JSON: %.200s", req, out)
	}
	return m, string(out)
}

func recordsSession(t *testing.T, state string) (*session.Session, map[string]any) {
	t.Helper()
	s := session.New()
	if m, out := call(t, s, `{"op":"load","key":"records-key-00000001","manifest":`+recordsManifest+`}`); m["loaded"] != true {
		t.Fatal(out)
	}
	m, out := call(t, s, `{"op":"observe","state":`+state+`}`)
	if m["error"] != nil {
		t.Fatal(out)
	}
	return s, m
}

// deepObject nests an object with a credential-shaped key levels deep.
func deepObject(levels int) string {
	return strings.Repeat(`{"`+ghpKey+`":`, levels) + `1` + strings.Repeat(`}`, levels)
}

func TestBadRecordCostsThatValue(t *testing.T) {
	for _, levels := range []int{65, 100, 500} {
		t.Run(fmt.Sprint(levels), func(t *testing.T) {
			state := `{"filter":"all","deep":` + deepObject(levels) + `,"items":[{"id":"A","name":"Ann","meta":` + deepObject(levels) +
				`},{"id":"B","name":"Bo","meta":{"ok":1}}]}`
			s, obs := recordsSession(t, state)
			var all strings.Builder
			o, _ := json.Marshal(obs)
			all.Write(o)
			if obs["cut"] != 2.0 || !strings.Contains(fmt.Sprint(obs["warnings"]), "2 declared values could not be kept") {
				t.Fatalf("observe does not count and warn about the cut values: %s", o)
			}
			d, out := call(t, s, `{"op":"describe"}`)
			all.WriteString(out)
			ctx, ok := d["context"].(map[string]any)
			if !ok {
				t.Fatalf("one bad record blanks the context: %s", out)
			}
			if ctx["cutTotal"] != 2.0 || fmt.Sprint(ctx["stateCut"]) != "[deep]" || ctx["state"].(map[string]any)["deep"] != nil {
				t.Fatalf("the cut state value is not reported: %s", out)
			}
			recs := ctx["records"].([]any)
			a, b := recs[0].(map[string]any), recs[1].(map[string]any)
			if fmt.Sprint(a["cut"]) != "[meta]" || a["fields"].(map[string]any)["meta"] != nil || a["fields"].(map[string]any)["name"] != "Ann" {
				t.Fatalf("record A: %v", a)
			}
			if b["cut"] != nil || fmt.Sprint(b["fields"].(map[string]any)["meta"]) != "map[ok:1]" {
				t.Fatalf("record B is affected by A: %v", b)
			}
			p, out := call(t, s, `{"op":"prepare","capability":"item.open","record":"A"}`)
			all.WriteString(out)
			if p["ok"] != true {
				t.Fatalf("record A is not actionable: %s", out)
			}
			// A patch that deepens a declared value from inside is cut too.
			_, out = call(t, s, `{"op":"observe","patch":[{"op":"replace","path":"/items/1/meta/ok","value":`+deepObject(levels)+`}]}`)
			all.WriteString(out)
			d, out = call(t, s, `{"op":"describe","record":["B"]}`)
			all.WriteString(out)
			if !strings.Contains(out, `"cut":["meta"]`) {
				t.Fatalf("a patch made B's meta too deep, and it is not cut: %.300s", out)
			}
			_, out = call(t, s, `{"op":"after","since":"s1"}`)
			all.WriteString(out)
			// A patch that fails deep inside a declared value names no key.
			_, out = call(t, s, `{"op":"observe","patch":[{"op":"remove","path":"/deep/`+ghpKey+`/`+ghpKey+`"}]}`)
			all.WriteString(out)
			if !strings.Contains(out, `"invalid_state"`) {
				t.Fatalf("want invalid_state: %s", out)
			}
			_, out = call(t, s, `{"op":"audit"}`)
			all.WriteString(out)
			if strings.Contains(all.String(), "ghp_") {
				t.Fatalf("a data key left the module: %.600s", all.String())
			}
		})
	}
}

func TestDuplicateIDsNameNothing(t *testing.T) {
	s, obs := recordsSession(t, `{"items":[{"id":"A","name":"first"},{"id":"B","name":"b"},{"id":"A","name":"impostor"},{"id":"C","name":"c"},{"id":"A","name":"third"}]}`)
	if obs["skipped"] != 3.0 || obs["duplicates"] != 3.0 || !strings.Contains(fmt.Sprint(obs["warnings"]), "3 records share their id") {
		t.Fatalf("observe: %v", obs)
	}
	d, out := call(t, s, `{"op":"describe"}`)
	ctx := d["context"].(map[string]any)
	if fmt.Sprint(ctx["recordIds"]) != "[B C]" || ctx["recordIdsTotal"] != 2.0 || ctx["recordsTotal"] != 5.0 || ctx["duplicatesTotal"] != 3.0 {
		t.Fatalf("describe: %s", out)
	}
	if strings.Contains(out, "first") || strings.Contains(out, "impostor") {
		t.Fatalf("a record with a shared id is shown: %s", out)
	}
	for _, req := range []string{
		`{"op":"describe","record":["A"]}`,
		`{"op":"prepare","capability":"item.open","record":"A"}`,
	} {
		if m, out := call(t, s, req); m["error"] == nil || m["error"].(map[string]any)["code"] != "unknown_record" {
			t.Fatalf("%s: %s", req, out)
		}
	}
	// Once the id is unique again, its record is referenceable.
	call(t, s, `{"op":"observe","patch":[{"op":"remove","path":"/items/4"},{"op":"remove","path":"/items/2"}]}`)
	if m, out := call(t, s, `{"op":"describe","record":["A"]}`); m["error"] != nil || !strings.Contains(out, `"first"`) {
		t.Fatalf("A is unique again: %s", out)
	}
}

func TestInactiveCapabilityAnswersLikeUnknown(t *testing.T) {
	s, _ := recordsSession(t, `{"open":false,"items":[{"id":"A","name":"a"}]}`)
	_, unknown := call(t, s, `{"op":"prepare","capability":"item.nothing","record":"A"}`)
	for _, req := range []string{
		`{"op":"prepare","capability":"item.refund","record":"A"}`,
		`{"op":"prepare","capability":"item.refund","record":"A","snapshot":"s1"}`,
		`{"op":"prepare","capability":"item.nothing","record":"A","snapshot":"s1"}`,
		`{"op":"prepare","capability":"panel.close"}`,
		`{"op":"prepare","capability":"panel.nothing"}`,
		`{"op":"prepare","capability":"panel.close","record":"A","input":{"x":1}}`,
		`{"op":"prepare","capability":"item.refund","record":"nobody"}`,
	} {
		if _, out := call(t, s, req); out != unknown {
			t.Fatalf("%s\n answers %s\n unknown %s", req, out, unknown)
		}
	}
	// Active, the same capability prepares.
	call(t, s, `{"op":"observe","state":{"open":true,"items":[{"id":"A","name":"a"}]}}`)
	if m, out := call(t, s, `{"op":"prepare","capability":"panel.close"}`); m["ok"] != true {
		t.Fatal(out)
	}
}

// A pager that follows next over records too large for the smallest
// response cap visits every record and stops.
func TestPagerAlwaysAdvances(t *testing.T) {
	big := strings.Repeat(`\u0001\u0002`, 1500) // escapes to 6 bytes a character
	var items []string
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("%s-%03d", strings.Repeat("x", 120), i)
		switch i % 3 {
		case 0: // one huge field
			items = append(items, fmt.Sprintf(`{"id":"%s","name":"%s"}`, id, big))
		case 1: // several large fields
			items = append(items, fmt.Sprintf(`{"id":"%s","a":"%s","b":"%s","c":"%s"}`, id, big[:600], big[:600], big[:600]))
		default:
			items = append(items, fmt.Sprintf(`{"id":"%s","name":"small"}`, id))
		}
	}
	for i := 12; i < 400; i++ { // many long ids fill recordIds
		items = append(items, fmt.Sprintf(`{"id":"%s-%03d"}`, strings.Repeat("y", 120), i))
	}
	s, _ := recordsSession(t, `{"items":[`+strings.Join(items, ",")+`]}`)
	for _, limit := range []int{1, 3, 8} {
		seen := map[string]bool{}
		next, pages := 0, 0
		for {
			pages++
			if pages > 500 {
				t.Fatalf("limit %d: the pager does not stop", limit)
			}
			d, out := call(t, s, fmt.Sprintf(`{"op":"describe","offset":%d,"limit":%d}`, next, limit))
			if len(out) > 4096 {
				t.Fatalf("answer of %d bytes over the cap", len(out))
			}
			ctx, ok := d["context"].(map[string]any)
			if !ok {
				t.Fatalf("offset %d: %s", next, out)
			}
			w := ctx["recordWindow"].(map[string]any)
			for _, r := range ctx["records"].([]any) {
				seen[r.(map[string]any)["id"].(string)] = true
			}
			returned, skipped := int(w["returned"].(float64)), 0
			if v, ok := w["skipped"]; ok {
				skipped = int(v.(float64))
			}
			n, ok := w["next"]
			if !ok {
				break
			}
			if int(n.(float64)) <= next || int(n.(float64)) != next+returned+skipped {
				t.Fatalf("limit %d offset %d: next %v does not advance by what was returned or skipped: %v", limit, next, n, w)
			}
			next = int(n.(float64))
		}
		if len(seen) < 400-4 { // at most the huge records may be skipped
			t.Fatalf("limit %d: %d of 400 records seen", limit, len(seen))
		}
	}
}

// A record whose field names alone exceed the cap cannot be shown even cut
// down: it is skipped, said so, and next moves past it.
func TestPagerSkipsWhatCannotFit(t *testing.T) {
	var fields, item []string
	for i := 0; i < 120; i++ {
		name := fmt.Sprintf("a_field_with_a_rather_long_name_%03d", i)
		fields = append(fields, fmt.Sprintf(`"%s":{"from":"/%s"}`, name, name))
		item = append(item, fmt.Sprintf(`"%s":"v"`, name))
	}
	m := `{"pinhole":1,"limits":{"maxResponseBytes":4096},"regions":[{"id":"r"}],
	 "collections":[{"region":"r","from":"/c","id":"/id","fields":{` + strings.Join(fields, ",") + `}}]}`
	var items []string
	for i := 0; i < 5; i++ {
		items = append(items, fmt.Sprintf(`{"id":"r%d",%s}`, i, strings.Join(item, ",")))
	}
	items = append(items, `{"id":"small"}`)
	s := session.New()
	call(t, s, `{"op":"load","key":"records-key-00000001","manifest":`+m+`}`)
	call(t, s, `{"op":"observe","state":{"c":[`+strings.Join(items, ",")+`]}}`)
	next, pages, skipped := 0, 0, 0
	var seen []string
	for {
		if pages++; pages > 20 {
			t.Fatal("the pager does not stop")
		}
		d, out := call(t, s, fmt.Sprintf(`{"op":"describe","offset":%d,"limit":2}`, next))
		if len(out) > 4096 {
			t.Fatalf("%d bytes", len(out))
		}
		ctx := d["context"].(map[string]any)
		w := ctx["recordWindow"].(map[string]any)
		if v, ok := w["skipped"]; ok {
			skipped += int(v.(float64))
		}
		for _, r := range ctx["records"].([]any) {
			seen = append(seen, r.(map[string]any)["id"].(string))
		}
		n, ok := w["next"]
		if !ok {
			break
		}
		if int(n.(float64)) <= next {
			t.Fatalf("next %v at offset %d: %s", n, next, out)
		}
		next = int(n.(float64))
	}
	if skipped != 5 || fmt.Sprint(seen) != "[small]" {
		t.Fatalf("skipped %d, seen %v", skipped, seen)
	}
}
