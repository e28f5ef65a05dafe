package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/session"
)

const testKey = "worker-test-key-0123456789"

// vectorPairs returns the conformance vectors (NAME.in.jsonl with its
// NAME.out.jsonl) from testdata/vectors, or from $PINHOLE_VECTORS. Finding
// none is a failure: a replay of nothing proves nothing.
func vectorPairs(t testing.TB) [][2]string {
	dir := os.Getenv("PINHOLE_VECTORS")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "vectors")
	}
	ins, _ := filepath.Glob(filepath.Join(dir, "*.in.jsonl"))
	if len(ins) == 0 {
		t.Fatalf("no conformance vectors (*.in.jsonl) in %s", dir)
	}
	var out [][2]string
	for _, in := range ins {
		out = append(out, [2]string{in, strings.TrimSuffix(in, ".in.jsonl") + ".out.jsonl"})
	}
	return out
}

// jsonLines splits a JSONL file into its lines, without the final newline.
func jsonLines(t testing.TB, path string) [][]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte{'\n'}), []byte{'\n'})
}

// nativeCore runs requests through a fresh core session, as the module
// would: the reference every HTTP answer is compared with.
func nativeCore(reqs ...[]byte) [][]byte {
	s := session.New()
	var out [][]byte
	for _, r := range reqs {
		out = append(out, s.Call(r))
	}
	return out
}

func readFile(t testing.TB, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ordersBody is a /v1/describe body for the bundled orders example.
func ordersBody(t testing.TB, request string) []byte {
	m := readFile(t, "../../testdata/orders/manifest.json")
	s := readFile(t, "../../testdata/orders/state.json")
	b := []byte(`{"manifest":` + string(m) + `,"state":` + string(s))
	if request != "" {
		b = append(b, `,"request":`+request...)
	}
	return append(b, '}')
}

// ordersDescribe is what the native core answers for the orders example
// loaded with testKey and described with req (a describe request).
func ordersDescribe(t testing.TB, req string) []byte {
	m := readFile(t, "../../testdata/orders/manifest.json")
	s := readFile(t, "../../testdata/orders/state.json")
	out := nativeCore([]byte(`{"op":"load","manifest":`+string(m)+`,"key":"`+testKey+`"}`),
		[]byte(`{"op":"observe","state":`+string(s)+`}`), []byte(req))
	return out[2]
}

type result struct {
	status int
	header http.Header
	body   []byte
}

func do(h http.Handler, method, path, ctype string, body []byte, hdr ...string) result {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return result{w.Code, w.Result().Header, w.Body.Bytes()}
}

// wantError checks an answer is the error envelope with this status,
// code and param.
func wantError(t *testing.T, res result, status int, code, param string) {
	t.Helper()
	if res.status != status {
		t.Errorf("status %d, want %d (body %s)", res.status, status, res.body)
	}
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var e struct {
		Error *struct{ Code, Message, Param string } `json:"error"`
	}
	if err := json.Unmarshal(res.body, &e); err != nil || e.Error == nil {
		t.Fatalf("not an error envelope: %s", res.body)
	}
	if e.Error.Code != code || e.Error.Param != param || e.Error.Message == "" {
		t.Errorf("error %+v, want code %q param %q", *e.Error, code, param)
	}
}

func TestDescribeMatchesCore(t *testing.T) {
	h := NewHandler(Config{Key: testKey})
	for _, req := range []string{"", `{}`, `{"offset":8,"limit":8}`, `{"record":["SO-1002","SO-1003"]}`} {
		res := do(h, "POST", "/v1/describe", "application/json", ordersBody(t, req))
		want := ordersDescribe(t, `{"op":"describe"}`)
		if len(req) > 2 {
			want = ordersDescribe(t, `{"op":"describe",`+req[1:])
		}
		if res.status != 200 || res.header.Get("Content-Type") != "application/json" {
			t.Fatalf("request %s: status %d, type %q: %s", req, res.status, res.header.Get("Content-Type"), res.body)
		}
		if !bytes.Equal(res.body, want) {
			t.Errorf("request %s: body differs from the native core\n got %.300s\nwant %.300s", req, res.body, want)
		}
	}
}

var aliasRe = regexp.MustCompile(`al_[A-Za-z0-9_-]+`)

func TestDescribeKeyPerRequest(t *testing.T) {
	body := ordersBody(t, `{"limit":8}`)
	aliases := func(h http.Handler) string {
		res := do(h, "POST", "/v1/describe", "application/json", body)
		if res.status != 200 {
			t.Fatalf("status %d: %s", res.status, res.body)
		}
		a := aliasRe.FindAllString(string(res.body), -1)
		if len(a) == 0 {
			t.Fatal("the orders example shows no alias; the test needs one")
		}
		return strings.Join(a, " ")
	}
	random := NewHandler(Config{})
	if aliases(random) == aliases(random) {
		t.Error("without PINHOLE_KEY two requests gave the same aliases; the key must be random per request")
	}
	fixed := NewHandler(Config{Key: testKey})
	if aliases(fixed) != aliases(fixed) {
		t.Error("with PINHOLE_KEY two requests gave different aliases")
	}
}

func TestDescribeByManifestID(t *testing.T) {
	m := readFile(t, "../../testdata/orders/manifest.json")
	s := readFile(t, "../../testdata/orders/state.json")
	h := NewHandler(Config{Key: testKey, Manifests: `{"orders":` + string(m) + `}`})
	res := do(h, "POST", "/v1/describe", "application/json", []byte(`{"manifestId":"orders","state":`+string(s)+`}`))
	if res.status != 200 || !bytes.Equal(res.body, ordersDescribe(t, `{"op":"describe"}`)) {
		t.Errorf("status %d, body differs from the core: %.300s", res.status, res.body)
	}
	wantError(t, do(h, "POST", "/v1/describe", "application/json", []byte(`{"manifestId":"nope","state":{}}`)), 400, "invalid_request", "manifestId")
	wantError(t, do(h, "POST", "/v1/describe", "application/json", []byte(`{"manifestId":7,"state":{}}`)), 400, "invalid_request", "manifestId")
	bad := NewHandler(Config{Manifests: `[1]`})
	wantError(t, do(bad, "POST", "/v1/describe", "application/json", []byte(`{"manifestId":"orders","state":{}}`)), 500, "internal_error", "")
}

func TestDescribeErrors(t *testing.T) {
	h := NewHandler(Config{})
	state := string(readFile(t, "../../testdata/orders/state.json"))
	manifest := string(readFile(t, "../../testdata/orders/manifest.json"))
	cases := []struct {
		name, body  string
		status      int
		code, param string
	}{
		{"malformed JSON", `{"manifest":`, 400, "invalid_request", "body"},
		{"not an object", `[1,2]`, 400, "invalid_request", "body"},
		{"unknown member", `{"manifest":{},"state":{},"extra":1}`, 400, "invalid_request", "extra"},
		{"no manifest", `{"state":{}}`, 400, "invalid_request", "manifest"},
		{"both manifest and id", `{"manifest":{},"manifestId":"x","state":{}}`, 400, "invalid_request", "manifestId"},
		{"request not object", `{"manifest":` + manifest + `,"state":{},"request":[1]}`, 400, "invalid_request", "request"},
		{"request with op", `{"manifest":` + manifest + `,"state":{},"request":{"op":"audit"}}`, 400, "invalid_request", "request"},
		{"invalid manifest", `{"manifest":{"pinhole":2},"state":{}}`, 422, "invalid_manifest", ""},
		{"state not object", `{"manifest":` + manifest + `,"state":[1]}`, 422, "invalid_state", "state"},
		{"no state", `{"manifest":` + manifest + `}`, 422, "invalid_state", "state"},
		{"record with window", `{"manifest":` + manifest + `,"state":` + state + `,"request":{"record":["SO-1002"],"limit":2}}`, 400, "record_with_window", "record"},
		{"limit too large", `{"manifest":` + manifest + `,"state":` + state + `,"request":{"limit":51}}`, 400, "limit_exceeds_max", "limit"},
		{"unknown record", `{"manifest":` + manifest + `,"state":` + state + `,"request":{"record":["SO-0"]}}`, 400, "unknown_record", "record"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := do(h, "POST", "/v1/describe", "application/json", []byte(c.body))
			if c.code == "invalid_manifest" {
				// The param is the manifest pointer the core names.
				var e struct{ Error struct{ Code, Param string } }
				json.Unmarshal(res.body, &e)
				c.param = e.Error.Param
				if c.param == "" {
					t.Errorf("invalid_manifest without a param: %s", res.body)
				}
			}
			wantError(t, res, c.status, c.code, c.param)
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	h := NewHandler(Config{MaxBodyBytes: 64})
	wantError(t, do(h, "GET", "/nope", "", nil), 404, "invalid_request", "path")
	wantError(t, do(h, "GET", "/v1", "", nil), 404, "invalid_request", "path")
	res := do(h, "GET", "/v1/describe", "", nil)
	wantError(t, res, 405, "invalid_request", "method")
	if got := res.header.Get("Allow"); got != "POST, OPTIONS" {
		t.Errorf("Allow %q", got)
	}
	for _, p := range []string{"/v1/session", "/v1/lint"} {
		wantError(t, do(h, "PUT", p, "application/json", []byte(`{}`)), 405, "invalid_request", "method")
	}
	for _, p := range []string{"/v1/version", "/healthz"} {
		res := do(h, "POST", p, "application/json", []byte(`{}`))
		wantError(t, res, 405, "invalid_request", "method")
		if got := res.header.Get("Allow"); got != "GET, HEAD, OPTIONS" {
			t.Errorf("%s Allow %q", p, got)
		}
	}
	for _, ct := range []string{"", "text/plain", "application/json; charset=latin1", "application/x-www-form-urlencoded", "application/x-ndjson"} {
		wantError(t, do(h, "POST", "/v1/describe", ct, []byte(`{}`)), 415, "invalid_request", "content-type")
	}
	wantError(t, do(h, "POST", "/v1/session", "text/plain", []byte(`{}`)), 415, "invalid_request", "content-type")
	// Under the bound with a charset parameter: past the checks, into the endpoint.
	wantError(t, do(h, "POST", "/v1/describe", "application/json; charset=UTF-8", []byte(`{}`)), 400, "invalid_request", "manifest")
	big := bytes.Repeat([]byte(" "), 65)
	wantError(t, do(h, "POST", "/v1/describe", "application/json", big), 413, "state_too_large", "body")
	// A body without a declared length is bounded while it is read.
	r := httptest.NewRequest("POST", "/v1/lint", struct{ *bytes.Reader }{bytes.NewReader(big)})
	r.ContentLength = -1
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	wantError(t, result{w.Code, w.Result().Header, w.Body.Bytes()}, 413, "state_too_large", "body")
	exact := append([]byte(`{}`), bytes.Repeat([]byte(" "), 62)...)
	wantError(t, do(h, "POST", "/v1/lint", "application/json", exact), 400, "invalid_request", "manifest")
}

func TestHealthAndVersion(t *testing.T) {
	h := NewHandler(Config{Key: testKey, Manifests: `{"orders":{},"b":{}}`})
	res := do(h, "GET", "/healthz", "", nil)
	if res.status != 200 || string(res.body) != `{"ok":true}` || res.header.Get("Cache-Control") != "no-store" {
		t.Errorf("healthz: %d %s %v", res.status, res.body, res.header)
	}
	if res := do(h, "HEAD", "/healthz", "", nil); res.status != 200 {
		t.Errorf("HEAD healthz: %d", res.status)
	}
	res = do(h, "GET", "/v1/version", "", nil)
	core := nativeCore([]byte(`{"op":"version"}`))[0]
	want := `{"module":` + string(core) + `,"worker":{"maxBodyBytes":` + strconv.Itoa(DefaultMaxBodyBytes) +
		`,"maxBatch":` + strconv.Itoa(DefaultMaxBatch) + `,"maxResponseBytes":` + strconv.Itoa(DefaultMaxResponseBytes) +
		`,"key":"configured","manifests":["orders","b"]}}`
	if res.status != 200 || string(res.body) != want {
		t.Errorf("version: %d\n got %s\nwant %s", res.status, res.body, want)
	}
	res = do(NewHandler(Config{}), "GET", "/v1/version", "", nil)
	if !bytes.Contains(res.body, []byte(`"key":"per-request","manifests":[]`)) {
		t.Errorf("version without config: %s", res.body)
	}
}

func TestCORS(t *testing.T) {
	const ok, other = "https://app.example.com", "https://evil.example.net"
	h := NewHandler(Config{AllowedOrigins: []string{ok}})
	res := do(h, "GET", "/healthz", "", nil, "Origin", ok)
	if res.header.Get("Access-Control-Allow-Origin") != ok || res.header.Get("Vary") != "Origin" {
		t.Errorf("allowed origin: %v", res.header)
	}
	res = do(h, "POST", "/v1/describe", "application/json", []byte(`{`), "Origin", ok)
	if res.status != 400 || res.header.Get("Access-Control-Allow-Origin") != ok {
		t.Errorf("errors to an allowed origin must be readable: %d %v", res.status, res.header)
	}
	res = do(h, "GET", "/healthz", "", nil, "Origin", other)
	if res.status != 200 || res.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("denied origin got CORS headers: %v", res.header)
	}
	res = do(h, "OPTIONS", "/v1/describe", "", nil, "Origin", ok, "Access-Control-Request-Method", "POST")
	if res.status != 204 || res.header.Get("Access-Control-Allow-Origin") != ok ||
		res.header.Get("Access-Control-Allow-Methods") != "POST, OPTIONS" || res.header.Get("Access-Control-Allow-Headers") != "Content-Type" {
		t.Errorf("preflight: %d %v", res.status, res.header)
	}
	res = do(h, "OPTIONS", "/v1/describe", "", nil, "Origin", other, "Access-Control-Request-Method", "POST")
	wantError(t, res, 403, "invalid_request", "origin")
	if res.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("denied preflight got CORS headers: %v", res.header)
	}
	wantError(t, do(h, "OPTIONS", "/v1/describe", "", nil), 403, "invalid_request", "origin")
	wantError(t, do(h, "OPTIONS", "/nope", "", nil, "Origin", ok), 404, "invalid_request", "path")
	// No origins configured: no CORS headers at all, and no Vary.
	res = do(NewHandler(Config{}), "GET", "/healthz", "", nil, "Origin", ok)
	if res.header.Get("Access-Control-Allow-Origin") != "" || res.header.Get("Vary") != "" {
		t.Errorf("unconfigured CORS: %v", res.header)
	}
}

func TestSessionReplaysVectors(t *testing.T) {
	h := NewHandler(Config{MaxBodyBytes: maxBodyCeiling})
	for _, v := range vectorPairs(t) {
		in, want := jsonLines(t, v[0]), jsonLines(t, v[1])
		if len(in) != len(want) {
			t.Fatalf("%s: %d requests, %d responses", v[0], len(in), len(want))
		}
		res := do(h, "POST", "/v1/session", "application/x-ndjson", append(bytes.Join(in, []byte{'\n'}), '\n'))
		if slices.ContainsFunc(in, copiesInPatch) {
			// The Worker takes no copies (TestSessionPatchCopyRefused).
			wantError(t, res, 400, "invalid_request", "body")
			continue
		}
		if res.status != 200 || res.header.Get("Content-Type") != "application/x-ndjson" {
			t.Fatalf("%s: status %d type %q: %.300s", v[0], res.status, res.header.Get("Content-Type"), res.body)
		}
		got := bytes.Split(bytes.TrimSuffix(res.body, []byte{'\n'}), []byte{'\n'})
		if len(got) != len(want) {
			t.Fatalf("%s: %d responses, want %d", v[0], len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("%s line %d differs\n got %.300s\nwant %.300s", filepath.Base(v[0]), i+1, got[i], want[i])
			}
		}
	}
}

func TestSessionJSONArray(t *testing.T) {
	h := NewHandler(Config{})
	m := readFile(t, "../../testdata/orders/manifest.json")
	s := readFile(t, "../../testdata/orders/state.json")
	// Whitespace and brackets inside strings must not disturb the split:
	// each request reaches the core byte for byte (audit counts bytesIn).
	reqs := [][]byte{
		[]byte(`{"op":"load","manifest":` + string(m) + `,"key":"` + testKey + `"}`),
		[]byte(`{ "op" : "observe", "state":` + string(s) + ` }`),
		[]byte(`{"op":"describe","record":["SO-1002"]}`),
		[]byte(`{"op":"describe","record":["x]\"},["]}`),
		[]byte(`{"op":"audit"}`),
	}
	body := []byte("[\n  " + string(bytes.Join(reqs, []byte(" ,\n\t"))) + "\n]")
	res := do(h, "POST", "/v1/session", "application/json", body)
	want := "[" + string(bytes.Join(nativeCore(reqs...), []byte(","))) + "]"
	if res.status != 200 || string(res.body) != want {
		t.Errorf("status %d\n got %.400s\nwant %.400s", res.status, res.body, want)
	}
	wantError(t, do(h, "POST", "/v1/session", "application/json", []byte(`[`)), 400, "invalid_request", "body")
	wantError(t, do(h, "POST", "/v1/session", "application/json", []byte(`[]`)), 400, "invalid_request", "body")
	wantError(t, do(h, "POST", "/v1/session", "application/json", []byte(`{"op":"version"}`)), 400, "invalid_request", "body")
	many := "[" + strings.Repeat(`{"op":"version"},`, DefaultMaxBatch) + `{"op":"version"}]`
	wantError(t, do(h, "POST", "/v1/session", "application/json", []byte(many)), 400, "invalid_request", "body")
	wantError(t, do(h, "POST", "/v1/session", "application/x-ndjson", nil), 400, "invalid_request", "body")
	// A line that is not JSON is the module's error, in band.
	res = do(h, "POST", "/v1/session", "application/x-ndjson", []byte("nope\n{\"op\":\"version\"}"))
	want = string(bytes.Join(nativeCore([]byte("nope"), []byte(`{"op":"version"}`)), []byte{'\n'})) + "\n"
	if res.status != 200 || string(res.body) != want {
		t.Errorf("ndjson: %d %s", res.status, res.body)
	}
}

func TestSplitArray(t *testing.T) {
	for doc, want := range map[string][]string{
		`[1]`:                                {`1`},
		`[]`:                                 {},
		` [ 1 , "a,]" ,{"b":[2,3]}, [[]] ] `: {`1`, `"a,]"`, `{"b":[2,3]}`, `[[]]`},
		`["\\",  "\""]`:                      {`"\\"`, `"\""`},
		`[nope, {"x":"}"}]`:                  {`nope`, `{"x":"}"}`},
	} {
		got, ok := splitArray([]byte(doc))
		if !ok || len(got) != len(want) {
			t.Errorf("%s: %q %v", doc, got, ok)
			continue
		}
		for i := range want {
			if string(got[i]) != want[i] {
				t.Errorf("%s item %d: %q, want %q", doc, i, got[i], want[i])
			}
		}
	}
	for _, bad := range []string{``, `[`, `{}`, `[1,]`, `[,1]`, `[1 2]`, `[1]]`, `[1] x`, `[{]`, `[{"a":[}]`, `["x]`, `[1,"a"b]`, `[a{}]`} {
		if got, ok := splitArray([]byte(bad)); ok {
			t.Errorf("%s: split as %q, want refused", bad, got)
		}
	}
}

func TestSplitObject(t *testing.T) {
	ms, err := splitObject([]byte(` { "a" : [1, "]"] , "b\u0063":{"d":{}} ,"e":null} `))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.name+"="+string(m.value))
	}
	if strings.Join(got, " ") != `a=[1, "]"] bc={"d":{}} e=null` {
		t.Errorf("%q", got)
	}
	if ms, err := splitObject([]byte(`{}`)); err != nil || len(ms) != 0 {
		t.Errorf("{}: %v %v", ms, err)
	}
	for _, bad := range []string{``, `[]`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{a:1}`, `{"a":1}}`, `{"a":1} 2`, `{"a":1,"a":2}`, `{"\x":1}`, `{"a":{]}`} {
		if ms, err := splitObject([]byte(bad)); err == nil {
			t.Errorf("%s: split as %v, want refused", bad, ms)
		}
	}
}

func TestLint(t *testing.T) {
	h := NewHandler(Config{Manifests: `{"orders":` + string(readFile(t, "../../testdata/orders/manifest.json")) + `}`})
	res := do(h, "POST", "/v1/lint", "application/json", []byte(`{"manifestId":"orders"}`))
	if res.status != 200 || string(res.body) != `{"ok":true,"findings":[]}` {
		t.Errorf("orders manifest: %d %s", res.status, res.body)
	}
	risky := `{"manifest":{"pinhole":1,"regions":[{"id":"r","description":"R"}],
	  "collections":[{"region":"r","from":"/items","id":"/id","fields":{
	    "contact":{"from":"/customer/email"},"phone":{"from":"/p","expose":"plain"},
	    "card":{"from":"/c","expose":"mask"},"status":{"from":"/status"}}}],
	  "state":{"authToken":"/session/token","filter":"/filter"}},
	  "state":{"items":[{"id":"1","customer":{"email":"a@example.com"},"p":"+44 20 7946 0000","status":"x"}],"session":{"token":"t"},"filter":"all"}}`
	res = do(h, "POST", "/v1/lint", "application/json", []byte(risky))
	var got struct {
		OK       bool
		Findings []struct{ Level, Code, Message, Param string }
	}
	if err := json.Unmarshal(res.body, &got); err != nil || res.status != 200 {
		t.Fatalf("%d %s", res.status, res.body)
	}
	var params []string
	for _, f := range got.Findings {
		code := "risky_declaration"
		if strings.HasSuffix(f.Param, "/from") {
			code = "path_not_in_state"
		}
		if f.Level != "warning" || f.Code != code || !strings.HasPrefix(f.Message, f.Param+":") {
			t.Errorf("finding %+v", f)
		}
		params = append(params, f.Param)
	}
	if !got.OK || strings.Join(params, " ") != "/collections/0/fields/contact /collections/0/fields/contact /collections/0/fields/phone /collections/0/fields/phone /state/authToken /collections/0/fields/card/from" {
		t.Errorf("ok %v, findings at %v", got.OK, params)
	}
	res = do(h, "POST", "/v1/lint", "application/json", []byte(`{"manifest":{"pinhole":1,"regions":"x"}}`))
	if err := json.Unmarshal(res.body, &got); err != nil || got.OK || len(got.Findings) != 1 ||
		got.Findings[0].Level != "error" || got.Findings[0].Code != "invalid_manifest" || got.Findings[0].Param != "/regions" {
		t.Errorf("invalid manifest: %s", res.body)
	}
	wantError(t, do(h, "POST", "/v1/lint", "application/json", []byte(`{"manifest":{},"colour":{}}`)), 400, "invalid_request", "colour")
	wantError(t, do(h, "POST", "/v1/lint", "application/json", []byte(`nope`)), 400, "invalid_request", "body")
	wantError(t, do(h, "POST", "/v1/lint", "application/json", []byte(`{}`)), 400, "invalid_request", "manifest")
}

func TestConfigFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	c, err := ConfigFromEnv(env(EnvKey, testKey, EnvMaxBodyBytes, "2048", EnvMaxResponse, "70000", EnvMaxBatch, "7",
		EnvAllowedOrigins, "https://a.example, http://localhost:5173", EnvManifests, `{}`))
	if err != nil || c.Key != testKey || c.MaxBodyBytes != 2048 || c.MaxResponseBytes != 70000 || c.MaxBatch != 7 ||
		strings.Join(c.AllowedOrigins, " ") != "https://a.example http://localhost:5173" || c.Manifests != `{}` {
		t.Errorf("%+v %v", c, err)
	}
	if c, err := ConfigFromEnv(env()); err != nil || c.MaxBodyBytes != 0 || c.MaxResponseBytes != 0 || c.MaxBatch != 0 {
		t.Errorf("unset settings: %+v %v (0 means the default)", c, err)
	}
	for _, bad := range [][]string{
		{EnvKey, "short"}, {EnvMaxBodyBytes, "0"}, {EnvMaxBodyBytes, "x"}, {EnvMaxBodyBytes, strconv.Itoa(maxBodyCeiling + 1)},
		{EnvMaxResponse, strconv.Itoa(minResponseBytes - 1)}, {EnvMaxResponse, strconv.Itoa(maxResponseCeiling + 1)}, {EnvMaxResponse, "2e6"},
		{EnvMaxBatch, "0"}, {EnvMaxBatch, "-1"}, {EnvMaxBatch, strconv.Itoa(maxBatchCeiling + 1)},
		{EnvAllowedOrigins, "*"}, {EnvAllowedOrigins, "https://a.example/"}, {EnvAllowedOrigins, "a.example"},
	} {
		_, err := ConfigFromEnv(env(bad...))
		if err == nil || !strings.HasPrefix(err.Error(), bad[0]) || strings.Contains(err.Error(), bad[1]) && bad[1] != "0" {
			t.Errorf("%v: error %v (must name the variable, not the value)", bad, err)
		}
		wantError(t, do(handlerFromEnv(env(bad...)), "GET", "/healthz", "", nil), 500, "internal_error", "")
	}
}

// BenchmarkNativeDescribeOrders is /v1/describe of the orders example
// through the handler, natively: the work one Worker request does, without
// the Go instance start-up.
func BenchmarkNativeDescribeOrders(b *testing.B) {
	h := NewHandler(Config{Key: testKey})
	body := ordersBody(b, "")
	for b.Loop() {
		if res := do(h, "POST", "/v1/describe", "application/json", body); res.status != 200 {
			b.Fatal(res.status)
		}
	}
}

// BenchmarkNativeCoreDescribeOrders is the core alone: load, observe and
// describe in a fresh session, as the handler runs them.
func BenchmarkNativeCoreDescribeOrders(b *testing.B) {
	m := readFile(b, "../../testdata/orders/manifest.json")
	s := readFile(b, "../../testdata/orders/state.json")
	load := []byte(`{"op":"load","manifest":` + string(m) + `,"key":"` + testKey + `"}`)
	observe := []byte(`{"op":"observe","state":` + string(s) + `}`)
	for b.Loop() {
		nativeCore(load, observe, []byte(`{"op":"describe"}`))
	}
}

// TestUnknownMemberNotEchoed: a member name that looks like a secret is not
// repeated in the error, neither in the message nor in param.
func TestUnknownMemberNotEchoed(t *testing.T) {
	h := NewHandler(Config{})
	secret := "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	res := do(h, "POST", "/v1/lint", "application/json", []byte(`{"`+secret+`":1}`))
	if res.status != 400 || bytes.Contains(res.body, []byte(secret)) || !bytes.Contains(res.body, []byte(`"invalid_request"`)) {
		t.Fatalf("%d %s", res.status, res.body)
	}
	// Values sent as member names are not quoted either; a parameter's
	// name is.
	for _, name := range []string{"4111111111111111", "ann@example.com", "DE89370400440532013000", "Ann Smith", "078-05-1120"} {
		res := do(h, "POST", "/v1/lint", "application/json", []byte(`{"`+name+`":1}`))
		if res.status != 400 || bytes.Contains(res.body, []byte(name)) {
			t.Errorf("%q: %d %s", name, res.status, res.body)
		}
	}
	if res := do(h, "POST", "/v1/lint", "application/json", []byte(`{"manifset":1}`)); !bytes.Contains(res.body, []byte(`"manifset"`)) {
		t.Errorf("a misspelt parameter is not named: %s", res.body)
	}
}

// amplifying is a manifest whose describe answers are as large as the core
// allows (maxResponseBytes 1 MiB, 200 records of long text), and a state
// for it of about size bytes.
func amplifying(size int) (manifest, state string) {
	manifest = `{"pinhole":1,"limits":{"defaultLimit":200,"maxLimit":200,"maxFieldChars":8192,"maxResponseBytes":1048576},
	  "regions":[{"id":"r","description":"Records"}],
	  "collections":[{"region":"r","from":"/items","id":"/id","fields":{"text":{"from":"/text","maxChars":8192}}}]}`
	text := strings.Repeat("lorem ipsum ", 300)
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < size-len(text)-40; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"r` + strconv.Itoa(i) + `","text":"` + text + `"}`)
	}
	b.WriteString(`]}`)
	return manifest, b.String()
}

// amplificationBatch is the finding's request: load, observe and as many
// describes as fit the body and batch bounds, each asking for the same large window
// (the first describe with offset 0, the rest alternating windows, so no
// answer comes from the describe cache).
func amplificationBatch(bodyBound int) [][]byte {
	m, st := amplifying(bodyBound / 2)
	reqs := [][]byte{[]byte(`{"op":"load","manifest":` + strings.ReplaceAll(m, "\n", " ") + `,"key":"` + testKey + `"}`),
		[]byte(`{"op":"observe","state":` + st + `}`)}
	size := len(reqs[0]) + len(reqs[1]) + 2
	for i := 0; ; i++ {
		d := []byte(`{"op":"describe","offset":` + strconv.Itoa(i%2) + `,"limit":200}`)
		if size+len(d)+1 > bodyBound || len(reqs) == DefaultMaxBatch {
			return reqs
		}
		reqs, size = append(reqs, d), size+len(d)+1
	}
}

// TestSessionAmplificationRefused: a batch of describes whose answers
// would add up to hundreds of times its body is refused whole, with 413
// limit_exceeds_max, in both batch forms; the core alone would answer it.
func TestSessionAmplificationRefused(t *testing.T) {
	reqs := amplificationBatch(DefaultMaxBodyBytes)
	var want int
	for _, out := range nativeCore(reqs[:3]...) {
		want += len(out)
	}
	if n := len(reqs) - 2; want*n/3 < 50*DefaultMaxBodyBytes {
		t.Fatalf("the batch is no amplification: %d describes of %d bytes", n, want/3)
	}
	h := NewHandler(Config{})
	ndjson := append(bytes.Join(reqs, []byte{'\n'}), '\n')
	array := append(append([]byte{'['}, bytes.Join(reqs, []byte{','})...), ']')
	for _, c := range []struct{ ctype, body string }{{"application/x-ndjson", string(ndjson)}, {"application/json", string(array)}} {
		if len(c.body) > DefaultMaxBodyBytes {
			t.Fatalf("%s body of %d bytes is over the body bound", c.ctype, len(c.body))
		}
		res := do(h, "POST", "/v1/session", c.ctype, []byte(c.body))
		wantError(t, res, 413, "limit_exceeds_max", "body")
		if len(res.body) > 300 {
			t.Errorf("%s: a partial answer came with the error: %d bytes", c.ctype, len(res.body))
		}
	}
}

// TestSessionLargestAccepted: the largest batch of these describes whose
// answers fit the response bound is answered in full, within the bound;
// one more describe is refused.
func TestSessionLargestAccepted(t *testing.T) {
	all := amplificationBatch(DefaultMaxBodyBytes)
	outs := nativeCore(all...)
	n, size := 0, 0
	for n < len(outs) && size+len(outs[n])+1 <= DefaultMaxResponseBytes {
		size += len(outs[n]) + 1
		n++
	}
	if n < 4 || n == len(outs) {
		t.Fatalf("%d of %d answers fit; the test needs a batch that crosses the bound", n, len(outs))
	}
	h := NewHandler(Config{Key: testKey})
	res := do(h, "POST", "/v1/session", "application/x-ndjson", append(bytes.Join(all[:n], []byte{'\n'}), '\n'))
	if res.status != 200 || len(res.body) != size || len(res.body) > DefaultMaxResponseBytes {
		t.Errorf("%d requests: status %d, %d bytes, want 200 and %d (bound %d)", n, res.status, len(res.body), size, DefaultMaxResponseBytes)
	}
	wantError(t, do(h, "POST", "/v1/session", "application/x-ndjson", bytes.Join(all[:n+1], []byte{'\n'})), 413, "limit_exceeds_max", "body")
	// The array form: brackets and commas count too.
	n, size = 0, 1
	for n < len(outs) && size+len(outs[n])+1 <= DefaultMaxResponseBytes {
		size += len(outs[n]) + 1
		n++
	}
	array := func(reqs [][]byte) []byte { return append(append([]byte{'['}, bytes.Join(reqs, []byte{','})...), ']') }
	res = do(h, "POST", "/v1/session", "application/json", array(all[:n]))
	if res.status != 200 || len(res.body) != size || len(res.body) > DefaultMaxResponseBytes {
		t.Errorf("array of %d requests: status %d, %d bytes, want 200 and %d", n, res.status, len(res.body), size)
	}
	wantError(t, do(h, "POST", "/v1/session", "application/json", array(all[:n+1])), 413, "limit_exceeds_max", "body")
}

// TestResponseBoundSettings: every answer respects a configured bound, and
// the batch size is a setting too.
func TestResponseBoundSettings(t *testing.T) {
	m, st := amplifying(200 << 10)
	body := []byte(`{"manifest":` + m + `,"state":` + st + `}`)
	res := do(NewHandler(Config{}), "POST", "/v1/describe", "application/json", body)
	if res.status != 200 || len(res.body) <= minResponseBytes {
		t.Fatalf("status %d, %d bytes: the test needs an answer over %d bytes", res.status, len(res.body), minResponseBytes)
	}
	small := NewHandler(Config{MaxResponseBytes: minResponseBytes})
	wantError(t, do(small, "POST", "/v1/describe", "application/json", body), 413, "limit_exceeds_max", "body")
	batch := NewHandler(Config{MaxBatch: 3})
	three := "[" + strings.Repeat(`{"op":"version"},`, 2) + `{"op":"version"}]`
	if res := do(batch, "POST", "/v1/session", "application/json", []byte(three)); res.status != 200 {
		t.Errorf("3 requests with MaxBatch 3: %d %s", res.status, res.body)
	}
	wantError(t, do(batch, "POST", "/v1/session", "application/json", []byte("["+strings.Repeat(`{"op":"version"},`, 3)+`{"op":"version"}]`)), 400, "invalid_request", "body")
	wantError(t, do(batch, "POST", "/v1/session", "application/x-ndjson", []byte(strings.Repeat("{\"op\":\"version\"}\n", 4))), 400, "invalid_request", "body")
}

// TestSessionPatchCopyRefused: the core bounds what the copies of one
// patch copy by the size of the state and the patch, so a chain of copies
// in one patch is refused, but each patch may still double the state: a
// batch of small patches, one copy each, doubles it request after request,
// far past the Worker's body bound. The Worker refuses any batch with a
// copy, before it runs anything.
func TestSessionPatchCopyRefused(t *testing.T) {
	m := strings.ReplaceAll(string(readFile(t, "../../testdata/orders/manifest.json")), "\n", " ")
	copies := func(n int, op string) []byte {
		ops := make([]string, n)
		for i := range ops {
			ops[i] = `{"op":"` + op + `","from":"/orders/items/0/items","path":"/orders/items/0/items/-"}`
		}
		return []byte(`{"op":"observe","patch":[` + strings.Join(ops, ",") + `]}`)
	}
	reqs := [][]byte{
		[]byte(`{"op":"load","manifest":` + m + `,"key":"` + testKey + `"}`),
		[]byte(`{"op":"observe","state":{"orders":{"items":[{"number":"a","items":[1]}]}}}`),
		copies(20, "copy"),
		[]byte(`{"op":"describe"}`),
	}
	// The core refuses the chain in one patch, but 20 patches of one copy
	// each grow the record's items to a million values.
	if out := nativeCore(reqs...); !bytes.Contains(out[2], []byte(`"code":"invalid_state"`)) {
		t.Fatalf("the core took the chain: %.300s", out[2])
	}
	doubling := reqs[:2:2]
	for range 20 {
		doubling = append(doubling, copies(1, "copy"))
	}
	if out := nativeCore(doubling...); !bytes.Contains(out[len(out)-1], []byte(`"snapshot":"s21","changed":true`)) {
		t.Fatalf("the core refused a doubling patch: %.300s", out[len(out)-1])
	}
	h := NewHandler(Config{Key: testKey})
	wantError(t, do(h, "POST", "/v1/session", "application/x-ndjson", bytes.Join(reqs, []byte{'\n'})), 400, "invalid_request", "body")
	wantError(t, do(h, "POST", "/v1/session", "application/json", append(append([]byte{'['}, bytes.Join(reqs, []byte{','})...), ']')), 400, "invalid_request", "body")
	escaped := bytes.ReplaceAll(copies(1, "copy"), []byte(`"copy"`), []byte(`"c\u006fpy"`))
	wantError(t, do(h, "POST", "/v1/session", "application/x-ndjson", bytes.Join([][]byte{reqs[0], reqs[1], escaped}, []byte{'\n'})), 400, "invalid_request", "body")
	// move and add are taken.
	moved := [][]byte{reqs[0], reqs[1], []byte(`{"op":"observe","patch":[{"op":"move","from":"/orders/items/0/items","path":"/orders/items/0/list"},{"op":"add","path":"/orders/items/0/items","value":[2]}]}`)}
	res := do(h, "POST", "/v1/session", "application/x-ndjson", bytes.Join(moved, []byte{'\n'}))
	if res.status != 200 || !bytes.Contains(res.body, []byte(`"snapshot":"s2","changed":true`)) {
		t.Errorf("move and add: %d %s", res.status, res.body)
	}
}

// TestShippedConfigsBindNoFaults: the fault-injection switch exists only in
// the tests' own workerd configuration, never in what a deployment uses.
func TestShippedConfigsBindNoFaults(t *testing.T) {
	for _, f := range []string{"workerd.capnp", "wrangler.jsonc"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), EnvTestFaults) {
			t.Errorf("%s mentions %s", f, EnvTestFaults)
		}
	}
}

// Bodies being read at once are bounded: with MaxReadingBytes of slow
// uploads in flight, the next POST is answered 503 with Retry-After before
// its body is read; when they finish, POSTs are read again.
func TestReadingBudget(t *testing.T) {
	// A Handler per request, as the Worker makes them: the budget is the
	// instance's, not a Handler's.
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		NewHandler(Config{Key: testKey}).ServeHTTP(w, r)
	})
	size := int64(DefaultMaxBodyBytes)
	n := int(MaxReadingBytes / size)
	writers := make([]*io.PipeWriter, n)
	done := make(chan int, n)
	for i := range writers {
		pr, pw := io.Pipe()
		writers[i] = pw
		r := httptest.NewRequest("POST", "/v1/lint", pr)
		r.ContentLength = size
		r.Header.Set("Content-Type", "application/json")
		go func() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			done <- w.Code
		}()
	}
	for reading.Load() < MaxReadingBytes {
		runtime.Gosched()
	}
	res := do(h, "POST", "/v1/lint", "application/json", []byte(`{}`))
	wantError(t, res, http.StatusServiceUnavailable, "internal_error", "body")
	if res.header.Get("Retry-After") == "" {
		t.Error("no Retry-After on a 503")
	}
	for _, pw := range writers {
		pw.CloseWithError(io.ErrUnexpectedEOF) // the slow uploads give up
	}
	for range writers {
		if code := <-done; code != http.StatusBadRequest {
			t.Errorf("an unfinished upload answered %d, want 400", code)
		}
	}
	if got := reading.Load(); got != 0 {
		t.Fatalf("%d bytes still counted as being read", got)
	}
	if res := do(h, "POST", "/v1/lint", "application/json", []byte(`{}`)); res.status == http.StatusServiceUnavailable {
		t.Errorf("after the uploads ended: %d %s", res.status, res.body)
	}
}
