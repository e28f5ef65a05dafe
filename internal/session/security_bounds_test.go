package session_test

// SECURITY.md §6 "Bounds hold under attack": a million records, huge
// values, deep nesting, many regions and capabilities, many unavailable
// entries, and a prepare answer asked to repeat a large value.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// peakHeap samples the live heap while fn runs and returns the highest
// figure seen, in bytes.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(done)
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	metrics.Read(sample)
	if v := sample[0].Value.Uint64(); v > peak.Load() {
		peak.Store(v)
	}
	return peak.Load()
}

// boundsManifest declares a plain, a user and a masked field, state,
// feedback, a page and one record-scope capability that is unavailable for
// every record.
const boundsManifest = `{"pinhole":1,
 "page":{"route":"/r/path","title":"/r/title"},
 "regions":[{"id":"list","description":"The list"}],
 "collections":[{"region":"list","from":"/items","id":"/id","fields":{
   "name":{"from":"/name"},"note":{"from":"/note","content":"user"},"email":{"from":"/email","expose":"mask"}}}],
 "state":{"filter":"/ui/filter"},
 "feedback":{"from":"/ui/toasts","text":"/message"},
 "capabilities":[{"name":"item.open","description":"Open one item","scope":"record","region":"list",
   "unavailable":[{"when":{"field":"/name","exists":true},"reason":"Every item is locked"}]}]}`

// describeChecked runs a describe and checks the bounds every answer keeps.
func describeChecked(t testing.TB, s *session.Session, req string, maxBytes int) map[string]any {
	t.Helper()
	out := s.Call([]byte(req))
	checkResponse(t, req, out, nil, maxBytes)
	r := decode(t, out)
	if r["error"] != nil {
		t.Fatalf("%s: %v", req, r["error"])
	}
	return r
}

func TestBoundsMillionRecords(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	var req bytes.Buffer
	req.Grow(n * 90)
	req.WriteString(`{"op":"observe","state":{"r":{"path":"/list","title":"List"},"ui":{"filter":"all","toasts":[]},"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			req.WriteByte(',')
		}
		n := strconv.AppendInt(nil, int64(i), 10)
		req.WriteString(`{"id":"R`)
		req.Write(n)
		req.WriteString(`","name":"Item `)
		req.Write(n)
		req.WriteString(`","email":"u`)
		req.Write(n)
		req.WriteString(`@example.com","secret":"zq`)
		req.Write(n)
		req.WriteString(`"}`)
	}
	req.WriteString(`]}}`)
	s := session.New()
	if r := decode(t, s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":`+boundsManifest+`}`))); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	start := time.Now()
	var obs map[string]any
	peak := peakHeap(func() {
		obs = decode(t, s.Call(req.Bytes()))
		for _, q := range []string{`{"op":"describe"}`, `{"op":"describe","offset":` + strconv.Itoa(n-3) + `,"limit":50}`,
			`{"op":"describe","limit":50}`, `{"op":"describe","record":["R` + strconv.Itoa(n-1) + `","R0"]}`} {
			r := describeChecked(t, s, q, 65536)
			ctx := r["context"].(map[string]any)
			if num(t, ctx["recordsTotal"]) != n || num(t, ctx["recordIdsTotal"]) != n {
				t.Fatalf("%s: totals %v/%v, want %d", q, ctx["recordsTotal"], ctx["recordIdsTotal"], n)
			}
			if len(asList(ctx["recordIds"])) != 1000 {
				t.Fatalf("%s: %d recordIds, want maxRecordIds 1000", q, len(asList(ctx["recordIds"])))
			}
			if num(t, ctx["unavailableTotal"]) != len(asList(ctx["records"])) {
				t.Fatalf("%s: unavailableTotal %v for %d records", q, ctx["unavailableTotal"], len(asList(ctx["records"])))
			}
		}
	})
	elapsed := time.Since(start)
	if num(t, obs["recordsTotal"]) != n {
		t.Fatalf("observe: %v", obs)
	}
	fmt.Printf("bounds: %d records (%d MB observe request): observe + 4 describes in %v, peak live heap %d MB (%.1f x the request)\n",
		n, req.Len()>>20, elapsed.Round(time.Millisecond), peak>>20, float64(peak)/float64(req.Len()))
	// Memory stays proportional to the declared state: the parsed tree and
	// the snapshot, never a copy per describe.
	if limit := uint64(req.Len()) * 40; peak > limit {
		t.Fatalf("peak live heap %d MB exceeds 40x the request (%d MB)", peak>>20, limit>>20)
	}
}

func TestBoundsHugeValues(t *testing.T) {
	size := 10 << 20
	if testing.Short() {
		size = 2 << 20
	}
	big := strings.Repeat("A long line of user text é ", size/28)
	runes := len([]rune(big))
	toasts := make([]any, 100_000)
	for i := range toasts {
		toasts[i] = map[string]any{"message": fmt.Sprintf("Notice %d", i)}
	}
	toasts[0] = map[string]any{"message": big}
	items := []any{
		map[string]any{"id": "R1", "name": big, "note": big, "email": big + "@example.com"},
		map[string]any{"id": big, "name": "an item whose id is 10 MB"},
	}
	state := map[string]any{"r": map[string]any{"path": big, "title": big},
		"ui": map[string]any{"filter": map[string]any{"deep": big}, "toasts": toasts}, "items": items}
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":` + boundsManifest + `}`))
	req := mustJSON(map[string]any{"op": "observe", "state": state})
	var r map[string]any
	peak := peakHeap(func() {
		obs := decode(t, s.Call(req))
		if num(t, obs["recordsTotal"]) != 2 || num(t, obs["skipped"]) != 1 {
			t.Fatalf("observe: %v", obs)
		}
		r = describeChecked(t, s, `{"op":"describe"}`, 65536)
	})
	ctx := r["context"].(map[string]any)
	if num(t, ctx["feedbackTotal"]) != 100_000 || len(asList(ctx["feedback"])) != 20 {
		t.Fatalf("feedback: total %v, %d items", ctx["feedbackTotal"], len(asList(ctx["feedback"])))
	}
	if fb := ctx["feedback"].([]any)[0].(map[string]any); num(t, fb["truncated"]) != runes {
		t.Fatalf("a 10 MB feedback text is not reported as cut: %v", fb["truncated"])
	}
	rec := ctx["records"].([]any)[0].(map[string]any)
	cut := rec["truncated"].(map[string]any)
	if num(t, cut["name"]) != runes || num(t, cut["note"]) != runes {
		t.Fatalf("truncated = %v, want %d for name and note", cut, runes)
	}
	for _, f := range []string{"name", "note"} {
		if n := len([]rune(rec["fields"].(map[string]any)[f].(string))); n != 512 {
			t.Fatalf("field %s has %d characters, want maxFieldChars 512", f, n)
		}
	}
	if st := ctx["state"].(map[string]any); st["filter"] != nil {
		t.Fatalf("a 10 MB composite state value should be dropped (null) and reported: %v", st["filter"])
	}
	if len(asList(ctx["recordIds"])) != 1 {
		t.Fatalf("a 10 MB id is referenceable")
	}
	fmt.Printf("bounds: %d MB fields, title, state and feedback text, 100000 feedback items: cut to the limits, totals exact, peak live heap %d MB\n",
		size>>20, peak>>20)
}

func TestBoundsDeepNesting(t *testing.T) {
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":` + boundsManifest + `}`))
	// Nesting the parser accepts, inside a declared value.
	deep := strings.Repeat(`{"a":`, 500) + `1` + strings.Repeat(`}`, 500)
	out := s.Call([]byte(`{"op":"observe","state":{"ui":{"filter":` + deep + `},"items":[{"id":"R1","name":` + deep + `}]}}`))
	checkResponse(t, "observe deep", out, nil, 0)
	if r := decode(t, out); r["error"] != nil {
		t.Fatalf("observe of 500 levels: %v", r)
	}
	describeChecked(t, s, `{"op":"describe"}`, 65536)
	// Nesting far beyond: an error, never a stack overflow.
	for _, d := range []int{600, 100_000, 1_000_000} {
		deep := strings.Repeat(`[`, d) + strings.Repeat(`]`, d)
		out := s.Call([]byte(`{"op":"observe","state":{"ui":{"filter":` + deep + `}}}`))
		checkResponse(t, "observe very deep", out, nil, 0)
		if r := decode(t, out); r["error"] == nil {
			t.Fatalf("nesting %d accepted", d)
		}
	}
	// A manifest condition nested 200 deep.
	cond := strings.Repeat(`{"not":`, 200) + `{"path":"/ui/filter","exists":true}` + strings.Repeat(`}`, 200)
	out = s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":{"pinhole":1,"regions":[{"id":"a","activeWhen":` + cond + `}]}}`))
	checkResponse(t, "deep condition", out, nil, 0)
	if !bytes.HasPrefix(out, []byte(`{"loaded":true`)) {
		t.Fatalf("a condition nested 200 deep: %.300s", out)
	}
	// Patches that would build nesting far past the parser's limit, each
	// adding a 400-deep value at the bottom of the one before: applied or
	// refused with invalid_state, and the module keeps answering.
	s.Call([]byte(`{"op":"load","key":"bounds-key-0000001","manifest":` + boundsManifest + `}`))
	s.Call([]byte(`{"op":"observe","state":{"ui":{"filter":1}}}`))
	const depth = 400
	value := strings.Repeat(`[`, depth) + `{"x":1}` + strings.Repeat(`]`, depth)
	path := "/ui/filter"
	for i := 0; i < 5; i++ {
		out := s.Call([]byte(`{"op":"observe","patch":[{"op":"add","path":"` + path + `","value":` + value + `}]}`))
		checkResponse(t, "deep patch", out, nil, 0)
		if r := decode(t, out); r["error"] != nil && r["error"].(map[string]any)["code"] != "invalid_state" {
			t.Fatalf("patch %d: %v", i, r["error"])
		}
		path += strings.Repeat("/0", depth) + "/x"
	}
	r := describeChecked(t, s, `{"op":"describe"}`, 65536)
	if st := r["context"].(map[string]any)["state"].(map[string]any); st["filter"] != nil {
		t.Fatalf("a 400-deep state value is shown: it should be dropped as too long")
	}
	checkResponse(t, "after", s.Call([]byte(`{"op":"after","since":"s1"}`)), nil, 65536)
}

func TestBoundsManyRegionsAndCapabilities(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 2_000
	}
	var m bytes.Buffer
	m.WriteString(`{"op":"load","key":"bounds-key-0000001","manifest":{"pinhole":1,"regions":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		// A chain: every region is the child of the one before.
		if i == 0 {
			m.WriteString(`{"id":"g0","description":"Region 0"}`)
		} else {
			fmt.Fprintf(&m, `{"id":"g%d","parent":"g%d","description":"Region %d","activeWhen":{"path":"/on","eq":true}}`, i, i-1, i)
		}
	}
	m.WriteString(`],"collections":[{"region":"g0","from":"/items","id":"/id","fields":{"name":{"from":"/name"}}}],"capabilities":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		fmt.Fprintf(&m, `{"name":"c%d.run","description":"Capability %d","scope":"record","region":"g%d","unavailable":[{"when":{"field":"/name","ne":"x"},"reason":"Not now %d"}]}`, i, i, i%7, i)
	}
	m.WriteString(`]}}`)
	s := session.New()
	start := time.Now()
	out := s.Call(m.Bytes())
	loadTime := time.Since(start)
	checkResponse(t, "load", out, nil, 0)
	if r := decode(t, out); r["loaded"] != true {
		t.Fatalf("load: %.300s", out)
	}
	var st bytes.Buffer
	st.WriteString(`{"op":"observe","state":{"on":true,"items":[`)
	for i := 0; i < 100; i++ {
		if i > 0 {
			st.WriteByte(',')
		}
		fmt.Fprintf(&st, `{"id":"R%d","name":"n"}`, i)
	}
	st.WriteString(`]}}`)
	start = time.Now()
	checkResponse(t, "observe", s.Call(st.Bytes()), nil, 0)
	// The capabilities alone exceed maxResponseBytes: the answer is an
	// error, never a longer response.
	out = s.Call([]byte(`{"op":"describe"}`))
	describeTime := time.Since(start)
	checkResponse(t, "describe", out, nil, 65536)
	if r := decode(t, out); r["error"] == nil || r["error"].(map[string]any)["code"] != "state_too_large" {
		t.Fatalf("describe with %d capabilities: want state_too_large, got %.300s", n, out)
	}
	fmt.Printf("bounds: %d regions (one parent chain) and %d capabilities: load %v, observe + describe %v\n",
		n, n, loadTime.Round(time.Millisecond), describeTime.Round(time.Millisecond))
	if loadTime > 15*time.Second {
		t.Fatalf("load of %d regions and capabilities took %v", n, loadTime)
	}
}

// TestBoundsManyUnavailable: 200 record-scope capabilities, each
// unavailable for every record of a 50-record window, is 10,000 entries;
// the answer keeps maxUnavailable of them and the exact total.
func TestBoundsManyUnavailable(t *testing.T) {
	var m bytes.Buffer
	m.WriteString(`{"op":"load","key":"bounds-key-0000001","manifest":{"pinhole":1,"limits":{"maxUnavailable":500,"maxResponseBytes":1048576},"regions":[{"id":"g"}],"collections":[{"region":"g","from":"/items","id":"/id","fields":{"name":{"from":"/name"}}}],"capabilities":[`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			m.WriteByte(',')
		}
		fmt.Fprintf(&m, `{"name":"c%d","description":"C %d","scope":"record","region":"g","unavailable":[{"when":{"field":"/name","exists":true},"reason":"Locked %d"}]}`, i, i, i)
	}
	m.WriteString(`]}}`)
	s := session.New()
	if r := decode(t, s.Call(m.Bytes())); r["loaded"] != true {
		t.Fatalf("load: %v", r)
	}
	var st bytes.Buffer
	st.WriteString(`{"op":"observe","state":{"items":[`)
	for i := 0; i < 1000; i++ {
		if i > 0 {
			st.WriteByte(',')
		}
		fmt.Fprintf(&st, `{"id":"R%d","name":"n"}`, i)
	}
	st.WriteString(`]}}`)
	s.Call(st.Bytes())
	r := describeChecked(t, s, `{"op":"describe","limit":50}`, 1<<20)
	ctx := r["context"].(map[string]any)
	got := len(asList(ctx["records"]))
	if total := num(t, ctx["unavailableTotal"]); total != 200*got {
		t.Fatalf("unavailableTotal %d, want %d (200 x %d records)", total, 200*got, got)
	}
	if n := len(asList(ctx["unavailable"])); n > 500 {
		t.Fatalf("%d unavailable entries, maxUnavailable is 500", n)
	}
}

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

// TestPrepareBoundSaysNothingOfHiddenLengths: whether a prepare answer fits
// maxResponseBytes is decided by what the agent knows. Padding its own
// free text until prepare refuses, an agent finds the same threshold
// whatever the length of the value behind its token; a value longer than
// its capability's session.TokenBudget is refused whatever the padding.
// Before, the
// threshold moved byte for byte with the hidden value, and a binary search
// of a dozen prepares read its exact length.
func TestPrepareBoundSaysNothingOfHiddenLengths(t *testing.T) {
	const maxResponse = 65536
	manifest := `{"pinhole":1,"regions":[{"id":"users"}],
	  "collections":[{"region":"users","from":"/users","id":"/id","fields":{
	    "answer":{"from":"/answer","expose":"placeholder"}}}],
	  "capabilities":[{"name":"user.verify","description":"Check a security answer","scope":"page","region":"users",
	    "input":{"type":"object","properties":{
	      "answer":{"type":"string","x-pinhole-token":{"field":"answer","record":"token"}},
	      "comment":{"type":"string"}},"required":["answer"],"additionalProperties":false}}]}`
	budget := session.TokenBudget(maxResponse, 1) // one token slot
	answers := []string{"x", "hunter2", "correct horse battery staple", strings.Repeat("\u0001", 300),
		strings.Repeat("a", budget-2), strings.Repeat("b", budget)}
	var st strings.Builder
	st.WriteString(`{"users":[`)
	for i, a := range answers {
		if i > 0 {
			st.WriteString(",")
		}
		fmt.Fprintf(&st, `{"id":"u%d","answer":%s}`, i, jsonString(a))
	}
	st.WriteString(`]}`)
	s := session.New()
	for _, req := range [][]byte{
		wire.LoadRequest([]byte(manifest), "bounds-test-key-0123456789"),
		wire.ObserveRequest([]byte(st.String())),
	} {
		if out := s.Call(req); wire.DecodeError(out) != nil {
			t.Fatalf("%.300s", out)
		}
	}
	d := s.Call([]byte(`{"op":"describe","limit":10}`))
	placeholders := regexp.MustCompile(`\{"\$placeholder":"ph_[A-Za-z0-9_-]+"\}`).FindAllString(string(d), -1)
	if len(placeholders) != len(answers) {
		t.Fatalf("%d placeholders for %d answers: %.500s", len(placeholders), len(answers), d)
	}
	// fits reports whether prepare answers ok with pad bytes of comment.
	fits := func(ph string, pad int) (bool, *wire.Error) {
		out := s.Call([]byte(`{"op":"prepare","capability":"user.verify","input":{"answer":` + ph +
			`,"comment":"` + strings.Repeat("x", pad) + `"}}`))
		e := wire.DecodeError(out)
		if e != nil && e.Code != wire.CodeInvalidInput {
			t.Fatalf("prepare: %.300s", out)
		}
		return e == nil, e
	}
	// threshold is the most padding prepare takes, by binary search.
	threshold := func(ph string) int {
		lo, hi := 0, maxResponse
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if ok, _ := fits(ph, mid); ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	want := threshold(placeholders[0])
	if want > maxResponse-budget || want < maxResponse-budget-256 {
		t.Fatalf("threshold %d: the bound is not one token's budget (%d) and the envelope", want, budget)
	}
	for i, ph := range placeholders[1 : len(answers)-1] {
		if got := threshold(ph); got != want {
			t.Errorf("answer %d (%d bytes): padding threshold %d, the 1-byte answer's %d: the refusal depends on the hidden length", i+1, len(answers[i+1]), got, want)
		}
	}
	long := placeholders[len(answers)-1]
	for _, pad := range []int{0, 100, want} {
		ok, e := fits(long, pad)
		if ok || !strings.Contains(e.Message, "longer than") || strings.Contains(e.Message, "bbbb") {
			t.Errorf("a value longer than the budget, padding %d: %v", pad, e)
		}
	}
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestPrepareTokenBudgetFitsEverySlot: the budget is the capability's share
// of maxResponseBytes, so an input that fills every token slot with values
// within it, and has some text of its own, is answered, even at the
// smallest maxResponseBytes.
func TestPrepareTokenBudgetFitsEverySlot(t *testing.T) {
	for _, slots := range []int{1, 2, 5} {
		props, fields, members, values := []string{`"msg":{"type":"string"}`}, []string{}, []string{`"msg":"Your order has shipped"`}, []string{`"id":"a"`}
		budget := session.TokenBudget(4096, slots)
		for i := range slots {
			n := strconv.Itoa(i)
			props = append(props, `"p`+n+`":{"type":"string","x-pinhole-token":{"field":"f`+n+`"}}`)
			fields = append(fields, `"f`+n+`":{"from":"/f`+n+`","expose":"alias"}`)
			values = append(values, `"f`+n+`":"`+strings.Repeat(string(rune('a'+i)), budget-2)+`"`)
		}
		manifest := `{"pinhole":1,"limits":{"maxResponseBytes":4096},"regions":[{"id":"r","description":"Records"}],
		  "collections":[{"region":"r","from":"/items","id":"/id","fields":{` + strings.Join(fields, ",") + `}}],
		  "capabilities":[{"name":"send","description":"Send","scope":"record","region":"r",
		    "input":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}]}`
		s := session.New()
		for _, req := range [][]byte{
			wire.LoadRequest([]byte(manifest), "bounds-test-key-0123456789"),
			wire.ObserveRequest([]byte(`{"items":[{` + strings.Join(values, ",") + `}]}`)),
		} {
			if out := s.Call(req); wire.DecodeError(out) != nil {
				t.Fatalf("%d slots: %.300s", slots, out)
			}
		}
		aliases := regexp.MustCompile(`al_[A-Za-z0-9_-]{24}`).FindAllString(string(s.Call([]byte(`{"op":"describe","record":["a"]}`))), -1)
		if len(aliases) != slots {
			t.Fatalf("%d slots: %d aliases", slots, len(aliases))
		}
		for i, a := range aliases {
			members = append(members, `"p`+strconv.Itoa(i)+`":"`+a+`"`)
		}
		out := s.Call([]byte(`{"op":"prepare","capability":"send","record":"a","input":{` + strings.Join(members, ",") + `}}`))
		if e := wire.DecodeError(out); e != nil || len(out) > 4096 {
			t.Errorf("%d slots, each value %d bytes: %d bytes, %.200s", slots, budget, len(out), out)
		}
	}
}

// TestPrepareOneThresholdPerManifest: capabilities with different numbers
// of token slots that take the same field refuse a long value behind a
// token at the same length. A budget per capability gave one threshold per
// slot count, and an agent trying each capability placed the hidden length
// between them.
func TestPrepareOneThresholdPerManifest(t *testing.T) {
	const maxResponse = 4096
	slot := `{"type":"string","x-pinhole-token":{"field":"f"}}`
	manifest := `{"pinhole":1,"limits":{"maxResponseBytes":4096},"regions":[{"id":"r","description":"Records"}],
	  "collections":[{"region":"r","from":"/items","id":"/id","fields":{"f":{"from":"/f","expose":"alias"}}}],
	  "capabilities":[
	    {"name":"one","description":"One slot","scope":"record","region":"r","input":{"type":"object","properties":{"a":` + slot + `}}},
	    {"name":"three","description":"Three slots","scope":"record","region":"r","input":{"type":"object","properties":{"a":` + slot + `,"b":` + slot + `,"c":` + slot + `}}}]}`
	budget := session.TokenBudget(maxResponse, 3)
	for _, n := range []int{budget - 2, budget + 100, session.TokenBudget(maxResponse, 1) - 2} {
		s := session.New()
		for _, req := range [][]byte{
			wire.LoadRequest([]byte(manifest), "bounds-test-key-0123456789"),
			wire.ObserveRequest([]byte(`{"items":[{"id":"a","f":"` + strings.Repeat("x", n) + `"}]}`)),
		} {
			if out := s.Call(req); wire.DecodeError(out) != nil {
				t.Fatalf("%.300s", out)
			}
		}
		alias := regexp.MustCompile(`al_[A-Za-z0-9_-]{24}`).FindString(string(s.Call([]byte(`{"op":"describe","record":["a"]}`))))
		var answers []bool
		for _, c := range []string{"one", "three"} {
			out := s.Call([]byte(`{"op":"prepare","capability":"` + c + `","record":"a","input":{"a":"` + alias + `"}}`))
			answers = append(answers, wire.DecodeError(out) == nil)
		}
		if answers[0] != answers[1] {
			t.Errorf("a %d-byte value: one slot answered %v, three slots %v", n, answers[0], answers[1])
		}
		if want := n+2 <= budget; answers[0] != want {
			t.Errorf("a %d-byte value (budget %d): answered %v", n, budget, answers[0])
		}
	}
}
