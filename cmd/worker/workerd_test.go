//go:build workerd && linux

// These tests run the built Worker under a real workerd started on a free
// loopback port, and compare every answer with the native handler and
// core. They run the tests' build (build/worker-test, `make worker-test`):
// the Worker of build/worker with the fault-injection endpoints added.
// `make test-worker` runs them.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pinholectx/pinhole/internal/session"
)

const workerOrigin = "https://app.example.com"

// workerdMaxBody is the body bound of the workerd run: the default, set
// explicitly so that the variable is read under workerd too.
const workerdMaxBody = DefaultMaxBodyBytes

// workerdMaxBatch is the batch bound of the workerd run: not the default,
// so /v1/version shows that the variable reached the Worker.
const workerdMaxBatch = DefaultMaxBatch - 1

// workerURL is the base URL of the workerd started by TestMain.
var workerURL string

// workerdPID is the workerd process, for CPU accounting in benchmarks.
var workerdPID int

// workerEnvVars is the Worker's configuration in the workerd run. The
// manifests are not among them: the Worker serves the ones `make worker`
// bundled (by default {"orders": testdata/orders/manifest.json}).
func workerEnvVars() []string {
	return []string{
		EnvKey + "=" + testKey,
		EnvAllowedOrigins + "=" + workerOrigin,
		EnvMaxBodyBytes + "=" + strconv.Itoa(workerdMaxBody),
		EnvMaxResponse + "=" + strconv.Itoa(DefaultMaxResponseBytes),
		EnvMaxBatch + "=" + strconv.Itoa(workerdMaxBatch),
	}
}

// nativeHandler is the reference: the same configuration, with the bundled
// manifests passed as PINHOLE_MANIFESTS.
func nativeHandler() http.Handler {
	m, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		panic(err)
	}
	vars := append(workerEnvVars(), EnvManifests+"="+`{"orders":`+string(m)+`}`)
	return handlerFromEnv(func(k string) string {
		for _, kv := range vars {
			if name, v, _ := strings.Cut(kv, "="); name == k {
				return v
			}
		}
		return ""
	})
}

func TestMain(m *testing.M) {
	var stop func()
	var err error
	workerURL, workerdPID, stop, err = startWorkerd(workerEnvVars())
	if err != nil {
		fmt.Fprintln(os.Stderr, "workerd:", err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	if perRequest.stop != nil {
		perRequest.stop()
	}
	os.Exit(code)
}

// testConfig writes workerd-test.capnp beside the tests' Worker's
// workerd.capnp: the same configuration plus the PINHOLE_TEST_FAULTS
// binding, which switches the fault-injection endpoints on.
func testConfig(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "workerd.capnp"))
	if err != nil {
		return "", err
	}
	const anchor = `    (name = "ASSETS", service = "assets"),`
	if !strings.Contains(string(b), anchor) {
		return "", fmt.Errorf("workerd.capnp has no ASSETS binding to add the test binding before")
	}
	test := strings.Replace(string(b), anchor,
		`    (name = "PINHOLE_TEST_FAULTS", fromEnvironment = "PINHOLE_TEST_FAULTS"),`+"\n"+anchor, 1)
	const name = "workerd-test.capnp"
	return name, os.WriteFile(filepath.Join(dir, name), []byte(test), 0o644)
}

// startWorkerd starts workerd on the built Worker with env (PINHOLE_*
// settings) and waits for /healthz. It returns the Worker's base URL and
// workerd's process id; stop kills it (its whole process group).
func startWorkerd(env []string) (url string, pid int, stop func(), err error) {
	dir := filepath.Join("..", "..", "build", "worker-test")
	if _, err := os.Stat(filepath.Join(dir, "app.wasm")); err != nil {
		return "", 0, nil, fmt.Errorf("no tests' Worker in build/worker-test (run make worker-test): %v", err)
	}
	bins, _ := filepath.Glob("node_modules/@cloudflare/workerd-*/bin/workerd")
	if len(bins) == 0 {
		return "", 0, nil, fmt.Errorf("workerd is not installed (cd cmd/worker && npm ci)")
	}
	bin, _ := filepath.Abs(bins[0])
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", 0, nil, err
	}
	addr := l.Addr().String()
	l.Close()
	config, err := testConfig(dir)
	if err != nil {
		return "", 0, nil, err
	}
	cmd := exec.Command(bin, "serve", config, "--socket-addr", "http="+addr)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PINHOLE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	// Its own process group, killed as a whole by stop; and killed by the
	// kernel if this test binary dies first (a panic or a timeout).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return "", 0, nil, err
	}
	stop = func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}
	url = "http://" + addr
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if res, err := client.Get(url + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return url, cmd.Process.Pid, stop, nil
			}
		}
	}
	stop()
	return "", 0, nil, fmt.Errorf("workerd did not answer /healthz within 60s")
}

// client bounds every request, so a hung workerd fails the test.
var client = &http.Client{Timeout: 60 * time.Second}

// call sends one request to the Worker under workerd.
func call(t testing.TB, method, path, ctype string, body []byte, hdr ...string) result {
	t.Helper()
	return callAt(t, workerURL, method, path, ctype, body, hdr...)
}

// callAt sends one request to the Worker at base.
func callAt(t testing.TB, base, method, path, ctype string, body []byte, hdr ...string) result {
	t.Helper()
	req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	if len(body) > workerdMaxBody {
		return resultOf(t, sendOversized(t, req))
	}
	return send(t, req)
}

// send sends req with the tests' client and reads the whole answer.
func send(t testing.TB, req *http.Request) result {
	t.Helper()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resultOf(t, res)
}

// resultOf reads an answer whole and closes its body.
func resultOf(t testing.TB, res *http.Response) result {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return result{res.StatusCode, res.Header, b}
}

// sendOversized writes req on a raw connection and reads the answer even
// when the server answers 413 and closes before the body is all sent (a
// client library then reports the broken pipe instead of the answer).
func sendOversized(t testing.TB, req *http.Request) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", req.URL.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	go req.Write(conn) // its error is the expected broken pipe
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWorkerdReplaysVectors(t *testing.T) {
	for _, v := range vectorPairs(t) {
		in, want := jsonLines(t, v[0]), jsonLines(t, v[1])
		res := call(t, "POST", "/v1/session", "application/x-ndjson", append(bytes.Join(in, []byte{'\n'}), '\n'))
		if slices.ContainsFunc(in, copiesInPatch) {
			// The Worker takes no copies (TestSessionPatchCopyRefused).
			if res.status != 400 || !bytes.Contains(res.body, []byte(`"code":"invalid_request","message":"the Worker takes no copy`)) {
				t.Fatalf("%s: status %d: %.300s", v[0], res.status, res.body)
			}
			continue
		}
		if res.status != 200 {
			t.Fatalf("%s: status %d: %.300s", v[0], res.status, res.body)
		}
		got := bytes.Split(bytes.TrimSuffix(res.body, []byte{'\n'}), []byte{'\n'})
		native := nativeCore(in...)
		if len(got) != len(want) || len(got) != len(native) {
			t.Fatalf("%s: %d responses, golden %d, native %d", v[0], len(got), len(want), len(native))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) || !bytes.Equal(got[i], native[i]) {
				t.Errorf("%s line %d differs\n workerd %.300s\n  golden %.300s\n  native %.300s", filepath.Base(v[0]), i+1, got[i], want[i], native[i])
			}
		}
	}
}

// TestWorkerdMatchesNative sends each endpoint one good request and every
// kind of bad input, to workerd and to the native handler with the same
// configuration: status, body and the headers that matter must be equal.
func TestWorkerdMatchesNative(t *testing.T) {
	manifest := string(readFile(t, "../../testdata/orders/manifest.json"))
	state := string(readFile(t, "../../testdata/orders/state.json"))
	type tc struct {
		name, method, path, ctype, body string
		hdr                             []string
		status                          int
	}
	cases := []tc{
		{"healthz", "GET", "/healthz", "", "", nil, 200},
		{"version", "GET", "/v1/version", "", "", nil, 200},
		{"describe", "POST", "/v1/describe", "application/json", string(ordersBody(t, `{"offset":8,"limit":8}`)), nil, 200},
		{"describe by id", "POST", "/v1/describe", "application/json", `{"manifestId":"orders","state":` + state + `,"request":{"record":["SO-1002"]}}`, nil, 200},
		{"session json", "POST", "/v1/session", "application/json", `[{"op":"load","manifest":` + manifest + `,"key":"` + testKey + `"},{"op":"observe","state":` + state + `},{"op":"describe"},{"op":"audit"}]`, nil, 200},
		{"lint", "POST", "/v1/lint", "application/json", `{"manifest":{"pinhole":1,"regions":[{"id":"r","description":"R"}],"collections":[{"region":"r","from":"/i","id":"/id","fields":{"email":{"from":"/e"}}}]}}`, nil, 200},
		{"lint invalid", "POST", "/v1/lint", "application/json", `{"manifest":{"pinhole":1,"regions":"x"}}`, nil, 200},
		{"init", "POST", "/v1/init", "application/json", `{"state":` + state + `}`, nil, 200},
		{"init without a state", "POST", "/v1/init", "application/json", `{"schema":""}`, nil, 422},
		{"not found", "GET", "/v1/nope", "", "", nil, 404},
		{"method", "GET", "/v1/describe", "", "", nil, 405},
		{"method get-only", "POST", "/healthz", "application/json", "{}", nil, 405},
		{"media type", "POST", "/v1/describe", "text/plain", "{}", nil, 415},
		{"charset", "POST", "/v1/lint", "application/json; charset=iso-8859-1", "{}", nil, 415},
		{"too large", "POST", "/v1/describe", "application/json", `{"state":"` + strings.Repeat("x", workerdMaxBody) + `"}`, nil, 413},
		{"malformed", "POST", "/v1/describe", "application/json", `{"manifest":`, nil, 400},
		{"unknown member", "POST", "/v1/describe", "application/json", `{"x":1}`, nil, 400},
		{"unknown manifest id", "POST", "/v1/describe", "application/json", `{"manifestId":"x","state":{}}`, nil, 400},
		{"invalid manifest", "POST", "/v1/describe", "application/json", `{"manifest":{"pinhole":2},"state":{}}`, nil, 422},
		{"invalid state", "POST", "/v1/describe", "application/json", `{"manifestId":"orders","state":[]}`, nil, 422},
		{"record with window", "POST", "/v1/describe", "application/json", `{"manifestId":"orders","state":{},"request":{"record":["a"],"offset":1}}`, nil, 400},
		{"batch empty", "POST", "/v1/session", "application/json", `[]`, nil, 400},
		{"batch over the batch bound", "POST", "/v1/session", "application/x-ndjson", strings.Repeat("{\"op\":\"version\"}\n", workerdMaxBatch+1), nil, 400},
		{"batch with a patch copy", "POST", "/v1/session", "application/x-ndjson", `{"op":"observe","patch":[{"op":"copy","from":"/a","path":"/b"}]}`, nil, 400},
		{"batch over the response bound", "POST", "/v1/session", "application/x-ndjson", string(bytes.Join(amplificationBatch(workerdMaxBody)[:workerdMaxBatch], []byte{'\n'})), nil, 413},
		{"cors allowed", "GET", "/healthz", "", "", []string{"Origin", workerOrigin}, 200},
		{"cors denied", "GET", "/healthz", "", "", []string{"Origin", "https://evil.example.net"}, 200},
		{"preflight allowed", "OPTIONS", "/v1/describe", "", "", []string{"Origin", workerOrigin, "Access-Control-Request-Method", "POST"}, 204},
		{"preflight denied", "OPTIONS", "/v1/describe", "", "", []string{"Origin", "https://evil.example.net", "Access-Control-Request-Method", "POST"}, 403},
	}
	native := nativeHandler()
	headers := []string{"Content-Type", "Allow", "Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Vary", "Cache-Control"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := call(t, c.method, c.path, c.ctype, []byte(c.body), c.hdr...)
			want := do(native, c.method, c.path, c.ctype, []byte(c.body), c.hdr...)
			if got.status != c.status || want.status != c.status {
				t.Errorf("status: workerd %d, native %d, want %d (%.200s)", got.status, want.status, c.status, got.body)
			}
			if !bytes.Equal(got.body, want.body) {
				t.Errorf("body differs\nworkerd %.300s\n native %.300s", got.body, want.body)
			}
			for _, h := range headers {
				if g, w := got.header.Get(h), want.header.Get(h); g != w {
					t.Errorf("header %s: workerd %q, native %q", h, g, w)
				}
			}
		})
	}
}

// TestWorkerdChunkedBodies: a body sent without a declared length
// (chunked), whole or a few bytes at a time, is read and answered as the
// same body with its length; one past the bound is refused with 413.
// syumai/workers gives such a request a length of 0, which the handler
// once took as declared and answered 400.
func TestWorkerdChunkedBodies(t *testing.T) {
	sendChunked := func(t *testing.T, body io.Reader) result {
		t.Helper()
		req, err := http.NewRequest("POST", workerURL+"/v1/describe", body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if req.ContentLength != 0 {
			t.Fatalf("the request would be sent with a length (%d)", req.ContentLength)
		}
		return send(t, req)
	}
	body := ordersBody(t, `{"offset":8,"limit":8}`)
	want := call(t, "POST", "/v1/describe", "application/json", body)
	if want.status != 200 {
		t.Fatalf("with its length: %d %.200s", want.status, want.body)
	}
	t.Run("whole", func(t *testing.T) {
		// An io.MultiReader has no length the client knows: it sends chunks.
		got := sendChunked(t, io.MultiReader(bytes.NewReader(body)))
		if got.status != 200 || !bytes.Equal(got.body, want.body) {
			t.Errorf("%d %.300s\nwant %.300s", got.status, got.body, want.body)
		}
	})
	t.Run("trickled", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() {
			for rest := body; len(rest) > 0; {
				n := min(len(rest), 997)
				pw.Write(rest[:n])
				rest = rest[n:]
				time.Sleep(time.Millisecond)
			}
			pw.Close()
		}()
		got := sendChunked(t, pr)
		if got.status != 200 || !bytes.Equal(got.body, want.body) {
			t.Errorf("%d %.300s\nwant %.300s", got.status, got.body, want.body)
		}
	})
	t.Run("one past the bound", func(t *testing.T) {
		big := []byte(`{"state":"` + strings.Repeat("x", workerdMaxBody) + `"}`)
		got := sendChunked(t, io.MultiReader(bytes.NewReader(big[:workerdMaxBody+1])))
		if got.status != http.StatusRequestEntityTooLarge {
			t.Errorf("%d %.200s, want 413", got.status, got.body)
		}
	})
}

// TestShippedWorkerHasNoFaults: the Worker that ships (build/worker) is
// built without the fault-injection endpoints, so no setting can reach them
// there; the one these tests run (build/worker-test) has them. The shipped
// module must not hold the text of fault_js.go's injected crash (a short
// constant such as the "/__test/" prefix is compiled into comparisons and
// leaves no text to look for).
func TestShippedWorkerHasNoFaults(t *testing.T) {
	marker := []byte("pinhole worker: injected crash")
	if shipped := readFile(t, "../../build/worker/app.wasm"); bytes.Contains(shipped, marker) {
		t.Error("the shipped Worker holds the fault-injection endpoints")
	}
	if test := readFile(t, "../../build/worker-test/app.wasm"); !bytes.Contains(test, marker) {
		t.Error("the tests' Worker lacks the fault-injection endpoints: the check above would prove nothing")
	}
}

// TestWorkerdAssets checks the static assets beside the API: the module is
// served as application/wasm without reaching the Go handler, and a path
// that is neither an asset nor an endpoint is the handler's 404.
func TestWorkerdAssets(t *testing.T) {
	want := readFile(t, "../../build/worker/assets/pinhole.wasm")
	res := call(t, "GET", "/pinhole.wasm", "", nil)
	if res.status != 200 || res.header.Get("Content-Type") != "application/wasm" || !bytes.Equal(res.body, want) {
		t.Errorf("pinhole.wasm: status %d, type %q, %d bytes (want %d)", res.status, res.header.Get("Content-Type"), len(res.body), len(want))
	}
	if _, err := os.Stat("../../web/dist/index.html"); err == nil {
		res := call(t, "GET", "/", "", nil)
		if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
			t.Errorf("demo page: status %d, type %q", res.status, res.header.Get("Content-Type"))
		}
	}
	wantError(t, call(t, "GET", "/no-such-asset.txt", "", nil), 404, "invalid_request", "path")
	// A POST to an asset path is not an asset request.
	wantError(t, call(t, "POST", "/pinhole.wasm", "application/json", []byte("{}")), 404, "invalid_request", "path")
}

// cpuNanos is the CPU time a workerd has used so far, summed over its
// threads.
func cpuNanos(b *testing.B, pid int) int64 {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var sum int64
	for _, f := range tasks {
		s, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that ended
		}
		n, _ := strconv.ParseInt(strings.Fields(string(s))[0], 10, 64)
		sum += n
	}
	if sum == 0 {
		b.Fatal("no CPU accounting for workerd in /proc")
	}
	return sum
}

// perRequest is a second workerd, started by the first benchmark that
// needs it, with PINHOLE_INSTANCE=request: a fresh Go instance for every
// request, the model syumai/workers' own glue has, for comparison in the
// same run.
var perRequest struct {
	url  string
	pid  int
	stop func()
}

// perRequestWorkerd returns the per-request workerd, starting it once.
func perRequestWorkerd(b *testing.B) (url string, pid int) {
	if perRequest.stop == nil {
		var err error
		perRequest.url, perRequest.pid, perRequest.stop, err = startWorkerd(append(workerEnvVars(), EnvInstance+"=request"))
		if err != nil {
			b.Fatal(err)
		}
	}
	return perRequest.url, perRequest.pid
}

// benchWorkerd sends the same request b.N times in sequence and reports
// latency percentiles and workerd's CPU time per request.
func benchWorkerd(b *testing.B, method, path, ctype string, body []byte) {
	benchWorkerdAt(b, workerURL, workerdPID, method, path, ctype, body)
}

// benchWarmUp is how many requests each case sends before measuring: V8
// compiles the hot functions of a module again, optimised, in the
// background, once per isolate, and that CPU time is not a request's.
// After 20 requests it was not done: the first case measured (the inline
// describe) took 12.1 ms of CPU per request after 20 and 10.7 ms after 300
// in one comparison, and the next case (the same describe by id) less than
// the first.
const benchWarmUp = 300

// benchWorkerdAt is benchWorkerd against the workerd at base, process pid.
func benchWorkerdAt(b *testing.B, base string, pid int, method, path, ctype string, body []byte) {
	for i := 0; i < benchWarmUp; i++ {
		if r := callAt(b, base, method, path, ctype, body); r.status != 200 {
			b.Fatalf("status %d: %.200s", r.status, r.body)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	cpu0 := cpuNanos(b, pid)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r := callAt(b, base, method, path, ctype, body)
		lat = append(lat, time.Since(t0))
		if r.status != 200 {
			b.Fatalf("status %d", r.status)
		}
	}
	b.StopTimer()
	cpu := cpuNanos(b, pid) - cpu0
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*9/10]), "p90-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/req")
}

// BenchmarkWorkerdDescribeOrders is one /v1/describe of the orders example
// (manifest and 48-order state sent inline, default window).
func BenchmarkWorkerdDescribeOrders(b *testing.B) {
	benchWorkerd(b, "POST", "/v1/describe", "application/json", ordersBody(b, ""))
}

// BenchmarkWorkerdDescribeOrdersByID is the same with the manifest bound
// in the environment.
func BenchmarkWorkerdDescribeOrdersByID(b *testing.B) {
	s := readFile(b, "../../testdata/orders/state.json")
	benchWorkerd(b, "POST", "/v1/describe", "application/json", []byte(`{"manifestId":"orders","state":`+string(s)+`}`))
}

// BenchmarkWorkerdHealthz is the floor: a trivial handler in the
// isolate's Go instance, what every request costs.
func BenchmarkWorkerdHealthz(b *testing.B) {
	benchWorkerd(b, "GET", "/healthz", "", nil)
}

// BenchmarkWorkerdPerRequestHealthz is the floor with a fresh Go instance
// per request (PINHOLE_INSTANCE=request).
func BenchmarkWorkerdPerRequestHealthz(b *testing.B) {
	base, pid := perRequestWorkerd(b)
	benchWorkerdAt(b, base, pid, "GET", "/healthz", "", nil)
}

// BenchmarkWorkerdPerRequestDescribeOrders is the orders describe with a
// fresh Go instance per request (PINHOLE_INSTANCE=request).
func BenchmarkWorkerdPerRequestDescribeOrders(b *testing.B) {
	base, pid := perRequestWorkerd(b)
	benchWorkerdAt(b, base, pid, "POST", "/v1/describe", "application/json", ordersBody(b, ""))
}

// BenchmarkWorkerdAsset is a static asset, served without starting Go.
func BenchmarkWorkerdAsset(b *testing.B) {
	benchWorkerd(b, "GET", "/pinhole.wasm", "", nil)
}

// memoryBudget is what one request may add to workerd's peak resident
// memory: half of an isolate's 128 MB, which also holds the JavaScript
// heap and, when requests overlap, their Go instances.
const memoryBudget = 64 << 20

// vmHWM is a process's peak resident memory in bytes (VmHWM).
func vmHWM(t testing.TB, pid int) int64 { return procStatus(t, pid, "VmHWM:") }

// vmRSS is a process's current resident memory in bytes (VmRSS).
func vmRSS(t testing.TB, pid int) int64 { return procStatus(t, pid, "VmRSS:") }

// procStatus reads one kB figure of /proc/<pid>/status, in bytes.
func procStatus(t testing.TB, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == field && f[2] == "kB" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10
		}
	}
	t.Fatal("no " + field + " in /proc/<pid>/status")
	return 0
}

// fill returns head + unit repeated + tail, as long as fits size bytes.
func fill(head, unit, tail string, size int) []byte {
	n := (size - len(head) - len(tail) + 1) / len(unit)
	return []byte(head + strings.TrimSuffix(strings.Repeat(unit, n), ",") + tail)
}

// TestWorkerdMemory measures the peak memory of the largest requests the
// default bounds accept, each in a fresh workerd (no other settings): the
// growth of workerd's peak resident memory (VmHWM) over the same process
// after one /healthz, which has instantiated the module and run Go once.
// Every accepted request must stay within memoryBudget, and the requests
// that would pass a bound are refused whole. `make bench-worker-memory`
// prints the figures (BENCHMARKS.md).
func TestWorkerdMemory(t *testing.T) {
	const body = DefaultMaxBodyBytes
	manifest := strings.ReplaceAll(string(readFile(t, "../../testdata/orders/manifest.json")), "\n", " ")
	load := `{"op":"load","manifest":` + manifest + `,"key":"` + testKey + `"}` + "\n"
	// Orders as the example's state holds them, repeated with new numbers.
	var example struct {
		Orders struct{ Items []map[string]any } `json:"orders"`
	}
	if err := json.Unmarshal(readFile(t, "../../testdata/orders/state.json"), &example); err != nil || len(example.Orders.Items) == 0 {
		t.Fatalf("no orders in the example state: %v", err)
	}
	var orders bytes.Buffer
	orders.WriteString(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`)
	for i := 0; ; i++ {
		o := example.Orders.Items[i%len(example.Orders.Items)]
		o["number"] = "SO-" + strconv.Itoa(i)
		b, _ := json.Marshal(o)
		if orders.Len()+len(b)+8 > body {
			break
		}
		if i > 0 {
			orders.WriteByte(',')
		}
		orders.Write(b)
	}
	orders.WriteString(`]}}}`)
	nd := func(reqs [][]byte) []byte { return append(bytes.Join(reqs, []byte{'\n'}), '\n') }
	// The largest batch of large describes whose answers fit the response
	// bound, and the same batch one describe over it.
	all := amplificationBatch(body)
	outs := nativeCore(all...)
	n, size := 0, 0
	for n < len(outs) && size+len(outs[n])+1 <= DefaultMaxResponseBytes {
		size += len(outs[n]) + 1
		n++
	}
	// A prepare whose token slots all hold the alias of one value as large
	// as a token of the capability may stand for, as many slots as the body
	// bound allows (the core bounds its answer).
	prepare := func(slots int) [][]byte {
		props, members := make([]string, slots), make([]string, slots)
		for i := range props {
			props[i] = `"p` + strconv.Itoa(i) + `":{"type":"string","x-pinhole-token":{"field":"big"}}`
		}
		reqs := [][]byte{
			[]byte(`{"op":"load","manifest":{"pinhole":1,"limits":{"maxResponseBytes":1048576},"regions":[{"id":"r","description":"Records"}],` +
				`"collections":[{"region":"r","from":"/items","id":"/id","fields":{"big":{"from":"/big","expose":"alias"}}}],` +
				`"capabilities":[{"name":"send","description":"Send the record","scope":"record","region":"r",` +
				`"input":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}]},"key":"` + testKey + `"}`),
			[]byte(`{"op":"observe","state":{"items":[{"id":"a","big":"` + strings.Repeat("x", session.TokenBudget(1048576, slots)-2) + `"}]}}`),
			[]byte(`{"op":"describe"}`),
		}
		alias := regexp.MustCompile(`al_[A-Za-z0-9_-]+`).Find(nativeCore(reqs...)[2])
		if alias == nil {
			t.Fatal("no alias in the describe answer")
		}
		for i := range members {
			members[i] = `"p` + strconv.Itoa(i) + `":"` + string(alias) + `"`
		}
		return append(reqs, []byte(`{"op":"prepare","capability":"send","record":"a","input":{`+strings.Join(members, ",")+`}}`))
	}
	slots := 100
	for len(nd(prepare(slots+100))) <= body {
		slots += 100
	}
	prep := prepare(slots)
	// The core refuses it for its size or answers within maxResponseBytes.
	if out := nativeCore(prep...)[3]; !bytes.Contains(out, []byte(`maxResponseBytes`)) && (len(out) > 1048576 || !bytes.HasPrefix(out, []byte(`{"ok":true`))) {
		t.Fatalf("the prepare is neither refused for its size nor answered within the bound: %.300s", out)
	}

	cases := []struct {
		name, path, ctype string
		body              []byte
		status            int
	}{
		{"describe: state of bare zeros", "/v1/describe", typeJSON, fill(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`, "0,", "]}}}", body), 200},
		{"describe: state of empty objects", "/v1/describe", typeJSON, fill(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`, "{},", "]}}}", body), 200},
		{"describe: orders like the example's", "/v1/describe", typeJSON, orders.Bytes(), 200},
		{"session: load, observe empty objects", "/v1/session", typeNDJSON, fill(load+`{"op":"observe","state":{"session":{"tenant":"t"},"orders":{"items":[`, "{},", "]}}}\n", body), 200},
		{"lint: state of bare zeros", "/v1/lint", typeJSON, fill(`{"manifestId":"orders","state":{"session":{"tenant":"t"},"orders":{"items":[`, "0,", "]}}}", body), 200},
		{"session: largest accepted batch of describes", "/v1/session", typeNDJSON, nd(all[:n]), 200},
		{"session: one describe more (refused)", "/v1/session", typeNDJSON, nd(all[:n+1]), 413},
		{"session: the amplification batch (refused)", "/v1/session", typeNDJSON, nd(all), 413},
		{"session: prepare with " + strconv.Itoa(slots) + " slots holding one alias", "/v1/session", typeNDJSON, nd(prep), 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(c.body) > body {
				t.Fatalf("body of %d bytes is over the bound", len(c.body))
			}
			base, pid, stop, err := startWorkerd(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			idle := vmHWM(t, pid)
			res := callAt(t, base, "POST", c.path, c.ctype, c.body)
			peak := vmHWM(t, pid)
			if res.status != c.status {
				t.Fatalf("status %d, want %d: %.300s", res.status, c.status, res.body)
			}
			if int64(len(res.body)) > DefaultMaxResponseBytes {
				t.Errorf("answer of %d bytes, over the response bound", len(res.body))
			}
			grew := peak - idle
			t.Logf("%-52s body %7d B  answer %8d B  status %d  workerd peak RSS %4d MB (+%2d MB)",
				c.name, len(c.body), len(res.body), res.status, peak>>20, grew>>20)
			if grew > memoryBudget {
				t.Errorf("the request added %d MB to workerd's peak memory, over the %d MB budget", grew>>20, memoryBudget>>20)
			}
		})
	}
}
