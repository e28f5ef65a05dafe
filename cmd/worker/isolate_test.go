//go:build workerd && linux

// These tests hold the Worker's instance model under a real workerd: one
// Go instance serves every request of the isolate, requests that overlap
// in it each get their own answer and environment, a panic fails only the
// requests it interrupts, and memory stays bounded over many requests.
// They start their own workerd with the fault-injection endpoints
// (PINHOLE_TEST_FAULTS=1, fault_js.go).

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// faultVars is the main test configuration plus the fault endpoints.
func faultVars(extra ...string) []string {
	return append(append(workerEnvVars(), EnvTestFaults+"=1"), extra...)
}

// startFaultWorkerd starts a workerd of its own for one test.
func startFaultWorkerd(t *testing.T, extra ...string) (base string, pid int) {
	t.Helper()
	base, pid, stop, err := startWorkerd(faultVars(extra...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return base, pid
}

// instanceInfo is the answer of /__test/instance.
type instanceInfo struct {
	Instance    string `json:"instance"`
	Served      int    `json:"served"`
	MemoryBytes int    `json:"memoryBytes"`
	Goroutines  int    `json:"goroutines"`
}

// instanceAt asks the Worker at base which Go instance answers.
func instanceAt(t testing.TB, base string) instanceInfo {
	t.Helper()
	res := callAt(t, base, "GET", "/__test/instance", "", nil)
	var info instanceInfo
	if res.status != 200 || json.Unmarshal(res.body, &info) != nil || info.Instance == "" {
		t.Fatalf("/__test/instance: status %d: %.200s", res.status, res.body)
	}
	return info
}

// slowRequest is a POST whose body arrives in two parts: the headers and
// the first part when it starts, the rest on finish. Until then the Go
// handler waits for the body inside the instance, and other requests
// interleave with it.
type slowRequest struct {
	conn net.Conn
	rest []byte
	done chan result
}

// startSlow sends the headers and the first `first` bytes of body.
func startSlow(t *testing.T, base, path, ctype string, body []byte, first int, hdr ...string) *slowRequest {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var head strings.Builder
	fmt.Fprintf(&head, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n", path, u.Host, ctype, len(body))
	for i := 0; i+1 < len(hdr); i += 2 {
		fmt.Fprintf(&head, "%s: %s\r\n", hdr[i], hdr[i+1])
	}
	head.WriteString("\r\n")
	if _, err := conn.Write(append([]byte(head.String()), body[:first]...)); err != nil {
		t.Fatal(err)
	}
	s := &slowRequest{conn: conn, rest: body[first:], done: make(chan result, 1)}
	go func() {
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			s.done <- result{status: -1, body: []byte(err.Error())}
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		s.done <- result{res.StatusCode, res.Header, b}
	}()
	return s
}

// finish sends the rest of the body.
func (s *slowRequest) finish(t *testing.T) {
	t.Helper()
	if _, err := s.conn.Write(s.rest); err != nil {
		t.Fatal(err)
	}
}

// wait returns the answer.
func (s *slowRequest) wait(t *testing.T) result {
	t.Helper()
	select {
	case r := <-s.done:
		return r
	case <-time.After(60 * time.Second):
		t.Fatal("no answer within 60s")
		return result{}
	}
}

// waitInHandler waits until n more requests than `before` counted have
// reached the Go instance's handler, not counting the polls themselves.
func waitInHandler(t *testing.T, base string, before instanceInfo, n int) {
	t.Helper()
	for polls := 1; polls < 200; polls++ {
		info := instanceAt(t, base)
		if info.Instance != before.Instance {
			t.Fatalf("the instance changed while waiting (%s, then %s)", before.Instance, info.Instance)
		}
		if info.Served-before.Served-polls >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%d slow requests did not reach the handler", n)
}

// tenant returns a manifest and a state of its own for tenant i: the
// region's description, the ids, the names and the aliased phones all
// differ from every other tenant's, and so does the number of records.
func tenant(i int) (manifest, state string) {
	manifest = `{"pinhole":1,"regions":[{"id":"r","description":"Records of tenant ` + strconv.Itoa(i) + `"}],` +
		`"collections":[{"region":"r","from":"/items","id":"/id","fields":{"name":{"from":"/name"},"phone":{"from":"/phone","expose":"alias"}}}]}`
	var items []string
	for j := 0; j < 3+i%7; j++ {
		items = append(items, fmt.Sprintf(`{"id":"t%d-%d","name":"tenant %d item %d","phone":"+1555%04d%03d"}`, i, j, i, j, i, j))
	}
	return manifest, `{"items":[` + strings.Join(items, ",") + `]}`
}

// TestWorkerdOneInstancePerIsolate: requests in sequence are served by one
// Go instance; with PINHOLE_INSTANCE=request each gets a fresh one.
func TestWorkerdOneInstancePerIsolate(t *testing.T) {
	t.Run("shared", func(t *testing.T) {
		base, _ := startFaultWorkerd(t)
		first := instanceAt(t, base)
		for i := 0; i < 5; i++ {
			if res := callAt(t, base, "POST", "/v1/describe", typeJSON, ordersBody(t, "")); res.status != 200 {
				t.Fatalf("describe: status %d: %.200s", res.status, res.body)
			}
		}
		last := instanceAt(t, base)
		if last.Instance != first.Instance || last.Served != first.Served+6 {
			t.Errorf("instance %s served %d, then %s served %d: want the same instance, 6 requests later", first.Instance, first.Served, last.Instance, last.Served)
		}
	})
	t.Run("per request", func(t *testing.T) {
		base, _ := startFaultWorkerd(t, EnvInstance+"=request")
		seen := map[string]bool{}
		for i := 0; i < 4; i++ {
			info := instanceAt(t, base)
			if seen[info.Instance] || info.Served != 1 {
				t.Errorf("request %d: instance %s (served %d) is not fresh", i, info.Instance, info.Served)
			}
			seen[info.Instance] = true
		}
	})
}

// TestWorkerdConcurrentRequests sends many requests of every kind at once
// to one isolate, each tenant with its own manifest and state, some with
// bodies that arrive in two parts so that they wait inside the instance
// while others run. Every answer must equal the native handler's for the
// same request, and all of them must have been served by one instance.
func TestWorkerdConcurrentRequests(t *testing.T) {
	base, _ := startFaultWorkerd(t)
	native := nativeHandler()
	before := instanceAt(t, base)
	type req struct {
		method, path, ctype string
		body                []byte
		slow                bool
	}
	var reqs []req
	const tenants = 24
	for i := 0; i < tenants; i++ {
		m, s := tenant(i)
		reqs = append(reqs,
			req{"POST", "/v1/describe", typeJSON, []byte(`{"manifest":` + m + `,"state":` + s + `}`), i%2 == 0},
			req{"POST", "/v1/session", typeNDJSON, []byte(`{"op":"load","manifest":` + m + `,"key":"` + testKey + "\"}\n" +
				`{"op":"observe","state":` + s + "}\n" + `{"op":"describe"}` + "\n"), i%3 == 0},
			req{"POST", "/v1/lint", typeJSON, []byte(`{"manifest":` + m + `,"state":` + s + `}`), false},
			req{"POST", "/v1/describe", typeJSON, ordersBody(t, `{"offset":`+strconv.Itoa(i)+`,"limit":3}`), i%4 == 1},
			req{"GET", "/healthz", "", nil, false},
			req{"GET", "/v1/version", "", nil, false},
		)
	}
	want := make([]result, len(reqs))
	for i, r := range reqs {
		want[i] = do(native, r.method, r.path, r.ctype, r.body)
		if want[i].status != 200 {
			t.Fatalf("request %d (%s): native status %d: %.200s", i, r.path, want[i].status, want[i].body)
		}
	}
	got := make([]result, len(reqs))
	var slows []*slowRequest
	var slowAt []int
	var wg sync.WaitGroup
	// The slow ones first: they wait inside the instance for the rest of
	// their bodies while everything else runs.
	for i, r := range reqs {
		if r.slow {
			slows = append(slows, startSlow(t, base, r.path, r.ctype, r.body, len(r.body)/2))
			slowAt = append(slowAt, i)
		}
	}
	waitInHandler(t, base, before, len(slows))
	for i, r := range reqs {
		if r.slow {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = callAt(t, base, r.method, r.path, r.ctype, r.body)
		}()
	}
	// And nonce checks: the environment Go reads for a request is that
	// request's own, while the requests overlap.
	const nonces = 16
	var nonceSlows []*slowRequest
	for i := 0; i < nonces; i++ {
		nonceSlows = append(nonceSlows, startSlow(t, base, "/__test/call", typeJSON, []byte(`{"pad":"`+strings.Repeat("x", 64)+`"}`), 10, "X-Test-Nonce", "n"+strconv.Itoa(i)))
	}
	wg.Wait()
	for i, s := range slows {
		s.finish(t)
		got[slowAt[i]] = s.wait(t)
	}
	for i := nonces - 1; i >= 0; i-- {
		nonceSlows[i].finish(t)
	}
	for i, s := range nonceSlows {
		res := s.wait(t)
		n := `"n` + strconv.Itoa(i) + `"`
		if res.status != 200 || string(res.body) != `{"header":`+n+`,"record":`+n+`}` {
			t.Errorf("nonce %d: status %d: %s", i, res.status, res.body)
		}
	}
	for i, r := range reqs {
		if got[i].status != want[i].status || !bytes.Equal(got[i].body, want[i].body) {
			t.Errorf("request %d (%s %s, slow %v): workerd %d %.200s\nnative %d %.200s", i, r.method, r.path, r.slow, got[i].status, got[i].body, want[i].status, want[i].body)
		}
		if r.path == "/v1/describe" && i%6 == 0 && !bytes.Contains(got[i].body, []byte(fmt.Sprintf("tenant %d item 0", i/6))) {
			t.Errorf("request %d: tenant %d's describe does not hold its own records: %.200s", i, i/6, got[i].body)
		}
	}
	after := instanceAt(t, base)
	if after.Instance != before.Instance {
		t.Errorf("served by instance %s, then %s: want one instance for the isolate", before.Instance, after.Instance)
	}
	t.Logf("%d requests (%d with bodies in two parts) and %d nonce checks, one instance; its memory %d MB",
		len(reqs), len(slows), nonces, after.MemoryBytes>>20)
}

// wantInternal checks the answer to a request the Worker could not
// complete: 500, the error envelope, the headers of every answer.
func wantInternal(t *testing.T, what string, res result) {
	t.Helper()
	var env struct {
		Error struct{ Code, Message, Param string }
	}
	if res.status != 500 || json.Unmarshal(res.body, &env) != nil || env.Error.Code != "internal_error" || env.Error.Message == "" {
		t.Errorf("%s: status %d: %.300s; want 500 internal_error", what, res.status, res.body)
	}
	if res.header.Get("Content-Type") != "application/json" || res.header.Get("Cache-Control") != "no-store" || res.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: headers %v", what, res.header)
	}
}

// TestWorkerdPanicFailsOnlyItsRequests: a panic in the handler (recovered)
// fails that request alone, a request waiting in the same instance is
// answered normally, and the next request gets a fresh instance. A Go
// program that ends (a panic on another goroutine, which nothing can
// recover) fails the requests it interrupts, and the next request again
// gets a fresh instance.
func TestWorkerdPanicFailsOnlyItsRequests(t *testing.T) {
	base, _ := startFaultWorkerd(t)
	body := ordersBody(t, `{"limit":2}`)
	want := do(nativeHandler(), "POST", "/v1/describe", typeJSON, body)
	origin := []string{"Origin", workerOrigin}

	first := instanceAt(t, base)
	waiting := startSlow(t, base, "/v1/describe", typeJSON, body, len(body)/2)
	waitInHandler(t, base, first, 1)
	res := callAt(t, base, "POST", "/__test/panic", typeJSON, []byte(`{}`), origin...)
	wantInternal(t, "the panicking request", res)
	if res.header.Get("Access-Control-Allow-Origin") != workerOrigin {
		t.Errorf("the panic's answer lacks the CORS header of an allowed origin: %v", res.header)
	}
	waiting.finish(t)
	if got := waiting.wait(t); got.status != 200 || !bytes.Equal(got.body, want.body) {
		t.Errorf("the request waiting beside the panic: status %d: %.200s", got.status, got.body)
	}
	second := instanceAt(t, base)
	if second.Instance == first.Instance {
		t.Errorf("after a panic the next request is still served by instance %s", first.Instance)
	}
	if got := callAt(t, base, "POST", "/v1/describe", typeJSON, body); got.status != 200 || !bytes.Equal(got.body, want.body) {
		t.Errorf("describe after the panic: status %d: %.200s", got.status, got.body)
	}

	// A crash: the program ends with two requests in it.
	second = instanceAt(t, base)
	interrupted := []*slowRequest{
		startSlow(t, base, "/v1/describe", typeJSON, body, len(body)/2, origin...),
		startSlow(t, base, "/v1/session", typeNDJSON, []byte("{\"op\":\"version\"}\n{\"op\":\"version\"}\n"), 10),
	}
	waitInHandler(t, base, second, len(interrupted))
	wantInternal(t, "the crashing request", callAt(t, base, "POST", "/__test/crash", typeJSON, []byte(`{}`)))
	for i, s := range interrupted {
		res := s.wait(t)
		wantInternal(t, "interrupted request "+strconv.Itoa(i), res)
		if i == 0 && res.header.Get("Access-Control-Allow-Origin") != workerOrigin {
			t.Errorf("the interrupted request's answer lacks the CORS header of an allowed origin: %v", res.header)
		}
	}
	third := instanceAt(t, base)
	if third.Instance == second.Instance || third.Served != 1 {
		t.Errorf("after the crash: instance %s (served %d), before %s; want a fresh one", third.Instance, third.Served, second.Instance)
	}
	if got := callAt(t, base, "POST", "/v1/describe", typeJSON, body); got.status != 200 || !bytes.Equal(got.body, want.body) {
		t.Errorf("describe after the crash: status %d: %.200s", got.status, got.body)
	}
}

// TestWorkerdFaultsNeedTheVariable: without PINHOLE_TEST_FAULTS the fault
// paths are no endpoints (the main test workerd does not set it).
func TestWorkerdFaultsNeedTheVariable(t *testing.T) {
	for _, p := range []string{"/__test/instance", "/__test/panic", "/__test/crash"} {
		wantError(t, call(t, "POST", p, typeJSON, []byte(`{}`)), 404, "invalid_request", "path")
	}
	if res := call(t, "GET", "/healthz", "", nil); res.status != 200 {
		t.Errorf("healthz after the fault paths: status %d", res.status)
	}
}

// The soak: warm-up rounds (the first requests grow the Go heap to its
// working size, and V8 compiles the hot functions again, optimised),
// then the measured rounds.
const (
	soakWarmRounds = 8
	soakRounds     = 16
)

// soakGrowthBudget is how much workerd's resident memory may grow between
// the end of the warm-up and the end of the soak: no request may leave
// memory behind, so anything beyond allocator noise is a leak.
const soakGrowthBudget = 16 << 20

// soakPeakBudget bounds workerd's peak resident memory over the idle
// process during the soak: the instance kept between requests (its linear
// memory at the largest request's working size), the optimised code and
// the request in flight, within three quarters of an isolate's 128 MB.
const soakPeakBudget = 96 << 20

// TestWorkerdSoak sends many requests, among them the largest the default
// bounds accept, to one isolate: workerd's resident memory after the soak
// must stay within soakGrowthBudget of what it was after a warm-up of the
// same mix, and its peak within soakPeakBudget of the idle process. It logs
// the figures and how many Go instances served the soak (an instance
// retires when its memory passes RETIRE_BYTES in entry.mjs).
func TestWorkerdSoak(t *testing.T) {
	base, pid := startFaultWorkerd(t)
	idle := vmHWM(t, pid)
	const body = DefaultMaxBodyBytes
	mix := []struct {
		method, path, ctype string
		body                []byte
	}{
		{"POST", "/v1/describe", typeJSON, ordersBody(t, "")},
		{"POST", "/v1/describe", typeJSON, fill(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`, "0,", "]}}}", body)},
		{"POST", "/v1/session", typeNDJSON, fill(`{"op":"load","manifest":`+strings.ReplaceAll(string(readFile(t, "../../testdata/orders/manifest.json")), "\n", " ")+`,"key":"`+testKey+`"}`+"\n"+`{"op":"observe","state":{"session":{"tenant":"t"},"orders":{"items":[`, "{},", "]}}}\n", body)},
		{"POST", "/v1/lint", typeJSON, fill(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`, "0,", "]}}}", body)},
		{"GET", "/healthz", "", nil},
	}
	instances := map[string]bool{}
	round := func() {
		for _, m := range mix {
			if res := callAt(t, base, m.method, m.path, m.ctype, m.body); res.status != 200 {
				t.Fatalf("%s: status %d: %.200s", m.path, res.status, res.body)
			}
		}
		instances[instanceAt(t, base).Instance] = true
	}
	for i := 0; i < soakWarmRounds; i++ {
		round()
	}
	warm := vmRSS(t, pid)
	clear(instances)
	t0 := time.Now()
	for i := 0; i < soakRounds; i++ {
		round()
	}
	rss, peak := vmRSS(t, pid), vmHWM(t, pid)
	info := instanceAt(t, base)
	t.Logf("%d requests in %v: workerd RSS %d MB after the warm-up, %d MB after the soak (%+d MB); peak %d MB (+%d MB over idle); %d Go instance(s), the last with %d MB of linear memory",
		soakRounds*(len(mix)+1), time.Since(t0).Round(time.Millisecond), warm>>20, rss>>20, (rss-warm)>>20, peak>>20, (peak-idle)>>20, len(instances), info.MemoryBytes>>20)
	if rss-warm > soakGrowthBudget {
		t.Errorf("resident memory grew by %d MB over the soak, over the %d MB budget", (rss-warm)>>20, soakGrowthBudget>>20)
	}
	if peak-idle > soakPeakBudget {
		t.Errorf("peak memory %d MB over idle, over the %d MB budget", (peak-idle)>>20, soakPeakBudget>>20)
	}
}

// TestWorkerdRetiresGrownInstance: an instance whose linear memory has
// grown past RETIRE_BYTES (96 MiB, entry.mjs) answers its request and
// serves no more; the next request gets a fresh instance, so one large
// request does not hold its peak for the isolate's lifetime.
func TestWorkerdRetiresGrownInstance(t *testing.T) {
	base, _ := startFaultWorkerd(t)
	first := instanceAt(t, base)
	small := callAt(t, base, "GET", "/__test/grow?bytes="+strconv.Itoa(8<<20), "", nil)
	if small.status != 200 || instanceAt(t, base).Instance != first.Instance {
		t.Fatalf("an 8 MiB request retired the instance (status %d)", small.status)
	}
	big := callAt(t, base, "GET", "/__test/grow?bytes="+strconv.Itoa(100<<20), "", nil)
	if big.status != 200 || string(big.body) != `{"grown":104857600}` {
		t.Fatalf("grow: status %d: %.200s", big.status, big.body)
	}
	next := instanceAt(t, base)
	if next.Instance == first.Instance || next.Served != 1 {
		t.Errorf("after a request that grew the instance past 96 MiB: instance %s (served %d), before %s; want a fresh one", next.Instance, next.Served, first.Instance)
	}
	if res := callAt(t, base, "POST", "/v1/describe", typeJSON, ordersBody(t, "")); res.status != 200 {
		t.Errorf("describe after the retirement: status %d", res.status)
	}
}

// TestWorkerdAbortedRequestsLeaveNothing: clients that send half a body and
// hang up leave no goroutine (holding what was read) in the instance.
func TestWorkerdAbortedRequestsLeaveNothing(t *testing.T) {
	base, _ := startFaultWorkerd(t)
	before := instanceAt(t, base)
	body := fill(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`, "0,", "]}}}", DefaultMaxBodyBytes)
	var aborted []*slowRequest
	for i := 0; i < 20; i++ {
		aborted = append(aborted, startSlow(t, base, "/v1/describe", typeJSON, body, len(body)/2))
	}
	waitInHandler(t, base, before, len(aborted))
	if during := instanceAt(t, base); during.Goroutines < before.Goroutines+len(aborted) {
		t.Fatalf("%d goroutines with %d requests waiting, %d before: the requests are not inside the instance", during.Goroutines, len(aborted), before.Goroutines)
	}
	for _, s := range aborted {
		s.conn.Close()
	}
	var after instanceInfo
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if after = instanceAt(t, base); after.Goroutines <= before.Goroutines {
			break
		}
	}
	if after.Instance != before.Instance || after.Goroutines > before.Goroutines {
		t.Errorf("after %d aborted requests: instance %s with %d goroutines; before %s with %d", len(aborted), after.Instance, after.Goroutines, before.Instance, before.Goroutines)
	}
}
