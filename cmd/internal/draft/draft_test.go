package draft

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/cmd/internal/lint"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

const ordersState = "../../../testdata/orders/state.json"

func readOrders(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(ordersState)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func draftOf(t *testing.T, sample string) (*manifest.Plan, *jsonval.Value, []byte) {
	t.Helper()
	text, e := FromJSON([]byte(sample), Options{Schema: DefaultSchema})
	if e != nil {
		t.Fatalf("draft: %v", e)
	}
	plan, e := manifest.Parse(text)
	if e != nil {
		t.Fatalf("the draft does not compile: %v\n%s", e, text)
	}
	v, err := jsonval.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if x := loadSchema(t); !x.valid(x.root, v) {
		t.Fatalf("the draft is invalid against the manifest schema:\n%s", text)
	}
	st, _ := jsonval.Parse([]byte(sample))
	if found := lint.Plan(plan, st); len(found) > 0 {
		t.Fatalf("the draft has lint findings with its sample: %v\n%s", found, text)
	}
	return plan, v, text
}

// exposure returns the expose mode of a field, "user" appended for user
// content, or "" when the field is not declared.
func exposure(m *jsonval.Value, col int, name string) string {
	f := m.Get("collections").Items[col].Get("fields").Get(name)
	if f == nil {
		return ""
	}
	mode := "plain"
	if e := f.Get("expose"); e != nil {
		mode = e.S
	}
	if c := f.Get("content"); c != nil {
		mode += " " + c.S
	}
	return mode
}

// TestOrdersDraft: the draft for the orders example passes lint with the
// sample, proposes what the example's own manifest declares by hand
// (mask, alias, placeholder, user content), and leaves out the
// credentials, internal notes and addresses.
func TestOrdersDraft(t *testing.T) {
	sample := readOrders(t)
	plan, m, _ := draftOf(t, string(sample))
	st, _ := jsonval.Parse(sample)
	if found := lint.Plan(plan, st); len(found) > 0 {
		t.Errorf("the draft has lint findings: %v", found)
	}
	col := m.Get("collections").Items[0]
	for k, want := range map[string]string{"from": "/orders/items", "id": "/number", "region": "orders"} {
		if got := col.Get(k).S; got != want {
			t.Errorf("collection %s = %q, want %q", k, got, want)
		}
	}
	for name, want := range map[string]string{
		"customerEmail": "mask", "customerPhone": "alias", "paymentCard": "placeholder", "note": "plain user",
		"status": "plain", "customerName": "plain", "totalsGrand": "plain",
		"internalNote": "", "paymentAuthCode": "", "customerAddressStreet": "", "riskScore": "", "number": "",
	} {
		if got := exposure(m, 0, name); got != want {
			t.Errorf("field %s: %q, want %q", name, got, want)
		}
	}
	if got := string(jsonval.Marshal(m.Get("page"))); !strings.Contains(got, `"route":"/router/path","title":"/router/title","params":{"from":"/router/query","allow":["page","status"]}`) {
		t.Errorf("page: %s", got)
	}
	if got := string(jsonval.Marshal(m.Get("feedback"))); !strings.Contains(got, `{"from":"/ui/toasts","text":"/message","level":"/kind","source":"/origin"`) {
		t.Errorf("feedback: %s", got)
	}
	for _, k := range []string{"filter", "sort", "selected"} {
		if m.Get("state").Get(k) == nil {
			t.Errorf("state lacks %s: %s", k, jsonval.Marshal(m.Get("state")))
		}
	}
	if m.Get("state").Get("token") != nil || m.Get("state").Get("role") != nil {
		t.Errorf("state declares more than list controls: %s", jsonval.Marshal(m.Get("state")))
	}
	if s := m.Get("sessionScope"); s == nil || s.S != "/session/tenant" {
		t.Errorf("sessionScope: %v", s)
	}
	if m.Get("capabilities") != nil {
		t.Error("the draft guesses capabilities")
	}
	if s := m.Get("$schema"); s == nil || s.S != DefaultSchema {
		t.Errorf("$schema: %v", s)
	}
	// The fields' comment counts each field once, by its mode; user content
	// is a mark on some of them, counted apart.
	fields := col.Get("fields")
	if got, want := fields.Get(manifest.Comment).S, "Fields: 25 (22 plain, 1 mask, 1 alias, 1 placeholder), 1 of them user content."; !strings.HasPrefix(got, want) {
		t.Errorf("fields comment %q, want it to start %q", got, want)
	}
	if n := len(fields.Keys) - 1; n != 25 {
		t.Errorf("%d fields, the comment counts 25", n)
	}
}

// TestDraftExposesNothingSensitive: loaded with the sample, the draft's
// whole context carries no string lint's detectors flag, none the
// credential net had to redact, and none of the store's planted values.
func TestDraftExposesNothingSensitive(t *testing.T) {
	sample := readOrders(t)
	_, _, text := draftOf(t, string(sample))
	s := session.New()
	for _, req := range []string{
		`{"op":"load","key":"draft-test-key-0123456789","manifest":` + string(text) + `}`,
		`{"op":"observe","state":` + string(sample) + `}`,
	} {
		if out := s.Call([]byte(req)); wire.DecodeError(out) != nil {
			t.Fatalf("%s", out)
		}
	}
	out := s.Call([]byte(`{"op":"describe","limit":50}`))
	ctx, err := jsonval.Parse(out)
	if err != nil || ctx.Get("context") == nil {
		t.Fatalf("describe: %s", out)
	}
	if n := len(ctx.Get("context").Get("records").Items); n != 48 {
		t.Fatalf("%d records, want 48", n)
	}
	var walk func(v *jsonval.Value)
	walk = func(v *jsonval.Value) {
		switch v.Kind {
		case jsonval.String:
			if lint.ValueLooksLike(v).Any() || v.S == "[redacted]" {
				t.Errorf("the context carries %q", v.S)
			}
		case jsonval.Array:
			for _, it := range v.Items {
				walk(it)
			}
		case jsonval.Object:
			for _, it := range v.Vals {
				walk(it)
			}
		}
	}
	walk(ctx.Get("context"))
	for _, planted := range []string{"eyJhbGci", "Internal:", "Harbour Road", "lena.zhou0@", "4111 1111", "+44 20", "AUTH", "sam.clerk", "trace-7f3a"} {
		if strings.Contains(string(out), planted) {
			t.Errorf("the context carries %q", planted)
		}
	}
}

// TestDraftDeterministic: the same sample gives the same bytes, whatever
// the order of its members.
func TestDraftDeterministic(t *testing.T) {
	sample := readOrders(t)
	_, _, a := draftOf(t, string(sample))
	_, _, b := draftOf(t, string(sample))
	v, _ := jsonval.Parse(sample)
	_, _, c := draftOf(t, string(jsonval.Marshal(reversed(v))))
	if string(a) != string(b) || string(a) != string(c) {
		t.Errorf("drafts differ:\n%s\n---\n%s", a, c)
	}
}

// reversed returns v with the members of every object in reverse order.
func reversed(v *jsonval.Value) *jsonval.Value {
	out := *v
	switch v.Kind {
	case jsonval.Array:
		out.Items = make([]*jsonval.Value, len(v.Items))
		for i, it := range v.Items {
			out.Items[i] = reversed(it)
		}
	case jsonval.Object:
		r := jsonval.NewObject()
		for i := len(v.Keys) - 1; i >= 0; i-- {
			r.Set(v.Keys[i], reversed(v.Vals[i]))
		}
		return r
	}
	return &out
}

// TestDraftCases: what a draft proposes for small samples.
func TestDraftCases(t *testing.T) {
	for _, tc := range []struct {
		name, sample string
		has, hasNot  []string // in the compact draft
	}{
		{"no collections", `{"router":{"pathname":"/settings","title":"Settings"},"ui":{"tab":"profile"}}`,
			[]string{`"page":{"route":"/router/pathname","title":"/router/title"`, `"tab":"/ui/tab"`, `No collection found`}, []string{`"collections"`, `"regions"`}},
		{"an empty object", `{}`, []string{`"pinhole":1`, `No collection found`, `No page`}, []string{`"state"`}},
		{"the root is the list", `[{"id":1,"name":"a"},{"id":2,"name":"b"}]`,
			[]string{`"from":"","id":"/id"`, `"id":"records"`, `"name":{"from":"/name"`}, nil},
		{"ids not unique", `{"users":[{"id":"a"},{"id":"a"}]}`, []string{`/users holds objects whose id-like keys are missing from some, not unique`}, []string{`"collections"`}},
		{"no id-like key", `{"points":[{"x":1},{"x":2}]}`, []string{`/points holds objects without an id-like key`}, []string{`"collections"`}},
		{"ids must not be e-mails", `{"users":[{"email":"a@example.com","userId":"u1"},{"email":"b@example.com","userId":"u2"}]}`,
			[]string{`"id":"/userId"`, `"email":{"from":"/email","expose":"mask"`}, nil},
		{"an id-like key that is a token", `{"keys":[{"key":"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"},{"key":"ghp_1123456789abcdefghijklmnopqrstuvwxyzAB"}]}`,
			nil, []string{`"collections"`, `ghp_`}},
		{"the collection's own id key first", `{"orders":[{"customerId":"c","orderId":"o1"},{"customerId":"c","orderId":"o2"}]}`,
			[]string{`"id":"/orderId"`, `"customerId":{"from":"/customerId"`}, nil},
		{"generic names take the parent's", `{"invoices":{"list":[{"id":"i1","amount":3}]}}`,
			[]string{`"id":"invoices","description":"Invoices"`}, nil},
		{"two collections, sorted", `{"zebras":[{"id":"z"}],"apples":[{"sku":"a","tags":["red","sweet"]}]}`,
			[]string{`"collections":[{"region":"apples"`, `{"region":"zebras"`, `"tags":{"from":"/tags"`}, nil},
		{"credentials and secrets left out", `{"people":[{"id":"p","password":"hunter2","apiKey":"x","session":{"token":"abc"},"bio":"Likes long walks on the beach"}]}`,
			[]string{`"bio":{"from":"/bio","content":"user"`, `/password (named like a credential`}, []string{`"password":{`, `"apiKey":{`, `"sessionToken":{`, `hunter2`}},
		{"lists of objects and nulls left out", `{"orders":[{"id":"o","lines":[{"sku":"s"}],"tracking":null}]}`,
			[]string{`/lines (a list of objects`, `/tracking (no value in the sample`}, []string{`"lines":{`, `"tracking":{`}},
		{"sensitive feedback is left out", `{"toasts":[{"message":"Invite sent to ada@example.com"}]}`,
			[]string{`Feedback /toasts left out`}, []string{`"feedback"`, `ada@`}},
		{"a map keyed by e-mail is not named", `{"prefs":{"ada@example.com":{"filter":"all"}}}`, nil, []string{`ada@`, `"state"`}},
		{"state values that look sensitive are left out", `{"ui":{"search":"ada@example.com","sort":"name"}}`,
			[]string{`"sort":"/ui/sort"`}, []string{`"search"`, `ada@`}},
		{"a url is a route only in a router", `{"user":{"avatar":{"url":"/img/a.png"}},"location":{"url":"/inbox"}}`,
			[]string{`"route":"/location/url"`}, []string{`/user/avatar/url`}},
		{"chat messages are records, not feedback", `{"messages":[{"id":"m1","text":"hi"},{"id":"m2","text":"hello"}]}`,
			[]string{`"from":"/messages","id":"/id"`}, []string{`"feedback"`}},
		{"no state deep inside", `{"entities":{"byId":{"a":{"selected":true,"name":"A"}}},"ui":{"selected":"a"}}`,
			[]string{`"selected":"/ui/selected"`}, []string{`/entities/byId/a/selected`}},
		{"page params", `{"location":{"path":"/x","query":{"q":"shoes","token":"abc","debug":"1","nested":{"a":1}}}}`,
			[]string{`"params":{"from":"/location/query","allow":["q"]}`}, nil},
		{"control characters in keys", "{\"ui\":{\"filter\\u0001\":\"a\"},\"l\":[{\"id\":\"x\",\"na\\u0002me\":\"n\"}]}",
			[]string{`"filter":"/ui/filter\u0001"`, `"naMe":{"from":"/na\u0002me"`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, m, _ := draftOf(t, tc.sample)
			compact := string(jsonval.Marshal(m))
			for _, h := range tc.has {
				if !strings.Contains(compact, h) {
					t.Errorf("lacks %s:\n%s", h, compact)
				}
			}
			for _, h := range tc.hasNot {
				if strings.Contains(compact, h) {
					t.Errorf("has %s:\n%s", h, compact)
				}
			}
		})
	}
}

// TestDraftNamesNoValues: a draft names keys and paths of the sample,
// never its values, wherever they sit (records, page, state, feedback,
// lists that are not collections).
func TestDraftNamesNoValues(t *testing.T) {
	sample := `{"router":{"path":"/VAL-01","title":"VAL-02","query":{"q":"VAL-03"}},
	  "ui":{"filter":"VAL-04","selected":"VAL-05","toasts":[{"message":"VAL-06 done","kind":"VAL-07"}]},
	  "session":{"tenant":"VAL-08","user":"VAL-09"},
	  "points":[{"x":"VAL-10"}],"dups":[{"id":"VAL-11"},{"id":"VAL-11"}],
	  "orders":[{"id":"VAL-12","status":"VAL-13","note":"VAL-14 with four words","customer":{"email":"VAL-15@example.com","phone":"+44 20 7946 0123"},
	             "lines":[{"sku":"VAL-16"}],"tags":["VAL-17"],"internal":"VAL-18"}]}`
	_, _, text := draftOf(t, sample)
	if strings.Contains(string(text), "VAL-") || strings.Contains(string(text), "7946") {
		t.Errorf("the draft quotes a value of the sample:\n%s", text)
	}
}

// TestDraftNamesNoDataKeys: a member whose name is itself data (an
// e-mail, a phone or card number, a token), nested in a record or in the
// page's query, is neither proposed nor named anywhere in the draft, its
// comments included; it is only counted.
func TestDraftNamesNoDataKeys(t *testing.T) {
	sample := `{"router":{"path":"/o","query":{"alice@example.com":"1","4111111111111111":"y","status":"open"}},
	  "orders":[{"id":"1","votes":{"alice@example.com":1,"+44 20 7946 0123":2},
	             "meta":{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB":true},"total":3}]}`
	_, _, text := draftOf(t, sample)
	for _, k := range []string{"alice", "4111", "7946", "ghp_"} {
		if strings.Contains(string(text), k) {
			t.Errorf("the draft names the data key %s:\n%s", k, text)
		}
	}
	for _, c := range []string{"2 more not allowed and not named here", "3 members whose names look like data"} {
		if !strings.Contains(string(text), c) {
			t.Errorf("the draft does not count them (%q):\n%s", c, text)
		}
	}
}

// TestDraftLargeMap: an object with very many members is data, not
// searched, and says so.
func TestDraftLargeMap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"byId":{`)
	for i := 0; i < maxMembers+1; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + strconv.Itoa(i) + `":{"filter":"x"}`)
	}
	b.WriteString(`}}`)
	_, m, _ := draftOf(t, b.String())
	if m.Get("state") != nil || !strings.Contains(m.Get("$comment").S, "/byId has more than 256 members and was not searched") {
		t.Errorf("%s", jsonval.Marshal(m))
	}
}

// TestDraftBadInput: a sample that is not JSON or too large is an error
// that does not quote it.
func TestDraftBadInput(t *testing.T) {
	if _, e := FromJSON([]byte(`{"secret":"s3cr3t"`), Options{}); e == nil || e.Code != wire.CodeInvalidState || strings.Contains(e.Message, "s3cr3t") {
		t.Errorf("not JSON: %v", e)
	}
	big := make([]byte, MaxSampleBytes+1)
	if _, e := FromJSON(big, Options{}); e == nil || e.Code != wire.CodeStateTooLarge {
		t.Errorf("too large: %v", e)
	}
	for _, scalar := range []string{`1`, `"text"`, `null`, `[]`, `[1,2]`} {
		if _, e := FromJSON([]byte(scalar), Options{}); e != nil {
			t.Errorf("%s: %v", scalar, e)
		}
	}
}

// TestDraftLayout: one line per field, and no "$schema" when asked for none.
func TestDraftLayout(t *testing.T) {
	text, e := FromJSON(readOrders(t), Options{})
	if e != nil {
		t.Fatal(e)
	}
	if strings.Contains(string(text), "$schema") {
		t.Error("$schema without a schema")
	}
	line := regexp.MustCompile(`(?m)^        "customerEmail": \{"from": "/customer/email", "expose": "mask", "\$comment": "[^"]+"\},$`)
	if !line.Match(text) {
		t.Errorf("fields are not one per line:\n%s", text)
	}
}

// FuzzDraft: any JSON sample gives a draft that compiles (Manifest checks
// it and answers internal_error otherwise) and passes lint with that
// sample, and drafting does not panic.
func FuzzDraft(f *testing.F) {
	f.Add(readOrders(f))
	f.Add([]byte(`[{"id":1,"name":"a"}]`))
	f.Add([]byte(`{"a":{"b":[{"id":"x","c":{"d":{"e":{"f":1}}}}]},"toasts":[{"text":"hi"}],"router":{"path":"/"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		text, e := FromJSON(b, Options{Schema: DefaultSchema})
		if e != nil && e.Code == wire.CodeInternal {
			t.Fatalf("%v\n%s", e, b)
		}
		if e != nil {
			return
		}
		plan, _ := manifest.Parse(text)
		st, _ := jsonval.Parse(b)
		if found := lint.Plan(plan, st); len(found) > 0 {
			t.Fatalf("lint findings with its own sample: %v\n%s\n%s", found, b, text)
		}
	})
}

// TestDraftStateNamesUnique: two state values of the same name under the
// same parent key in different places are both declared, under names of
// their own, and every pointer redescribeOn lists is a declared one.
func TestDraftStateNamesUnique(t *testing.T) {
	_, m, _ := draftOf(t, `{"a":{"ui":{"filter":"open"}},"b":{"ui":{"filter":"all"}}}`)
	st := m.Get("state")
	if st == nil {
		t.Fatal("no state drafted")
	}
	declared := map[string]bool{}
	for i, k := range st.Keys {
		if k != manifest.Comment {
			declared[st.Vals[i].S] = true
		}
	}
	for _, p := range []string{"/a/ui/filter", "/b/ui/filter"} {
		if !declared[p] {
			t.Errorf("%s is not declared: %s", p, jsonval.Marshal(st))
		}
	}
	if r := m.Get("redescribeOn"); r != nil {
		for _, it := range r.Items {
			if !declared[it.S] {
				t.Errorf("redescribeOn lists %s, which the state does not declare", it.S)
			}
		}
	}
}

// An id is shown plain, so a key named like personal, internal or secret
// data is never proposed as one, however unique its values.
func TestDraftIDKeyNotSensitive(t *testing.T) {
	for _, k := range []string{"passportNo", "ibanCode", "authCode", "resetCode", "sessionKey", "ssnNo"} {
		s := `{"rows":[{"` + k + `":"Q8ZR2LMX","n":1},{"` + k + `":"AP9TZ3KW","n":2}]}`
		out, e := FromJSON([]byte(s), Options{})
		if e != nil {
			t.Fatal(e.Message)
		}
		if strings.Contains(string(out), `"id": "/`+k+`"`) {
			t.Errorf("%s proposed as the record id (shown plain):\n%s", k, out)
		}
	}
}

// Sensitive values under names that say nothing are not proposed plain:
// phone and card numbers grouped by dots, IBANs, internationalised e-mail
// addresses, names with a digit after the word (token1), and fields that
// hold only empty strings.
func TestDraftSensitiveValuesNotPlain(t *testing.T) {
	vals := map[string][2]string{
		"a": {"555.123.4567", "555.987.6543"}, "b": {"4111.1111.1111.1111", "5500.0000.0000.0004"},
		"d": {"DE89370400440532013000", "FR1420041010050500013M02606"}, "e": {"jöhn@exämple.de", "bob@例え.jp"},
		"pwd2": {"hunter2xyz", "hunter3xyz"}, "token1": {"a", "b"}, "otp9": {"1", "2"}, "blank": {"", ""},
	}
	var r [2][]string
	for k, v := range vals {
		for i := range r {
			r[i] = append(r[i], `"`+k+`":`+string(jsonval.AppendString(nil, v[i])))
		}
	}
	s := `{"customers":[{"id":"c1",` + strings.Join(r[0], ",") + `},{"id":"c2",` + strings.Join(r[1], ",") + `}]}`
	out, e := FromJSON([]byte(s), Options{})
	if e != nil {
		t.Fatal(e.Message)
	}
	m, err := jsonval.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	fields := m.Get("collections").Items[0].Get("fields")
	for k := range vals {
		if f := fields.Get(k); f != nil && f.Get("expose") == nil {
			t.Errorf("field %q proposed plain:\n%s", k, out)
		}
	}
}
