package main

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/cmd/internal/draft"
)

// TestInit: /v1/init answers the draft `pinhole init` writes for the same
// sample, byte for byte, and refuses what is not a sample.
func TestInit(t *testing.T) {
	h := NewHandler(Config{})
	state := readFile(t, "../../testdata/orders/state.json")
	want, e := draft.FromJSON(state, draft.Options{Schema: draft.DefaultSchema})
	if e != nil {
		t.Fatal(e)
	}
	res := do(h, "POST", "/v1/init", "application/json", []byte(`{"state":`+string(state)+`}`))
	if res.status != 200 || string(res.body) != string(want) || res.header.Get("Content-Type") != "application/json" {
		t.Fatalf("orders: %d %q\n%.300s", res.status, res.header.Get("Content-Type"), res.body)
	}
	res = do(h, "POST", "/v1/init", "application/json", []byte(`{"state":{"items":[{"id":"a"}]},"schema":""}`))
	if res.status != 200 || strings.Contains(string(res.body), "$schema") || !strings.Contains(string(res.body), `"from": "/items"`) {
		t.Errorf(`schema "": %d %s`, res.status, res.body)
	}
	res = do(h, "POST", "/v1/init", "application/json", []byte(`{"state":{},"schema":"https://example.com/s.json"}`))
	if !strings.Contains(string(res.body), `"$schema": "https://example.com/s.json"`) {
		t.Errorf("schema: %s", res.body)
	}
	wantError(t, do(h, "POST", "/v1/init", "application/json", []byte(`{}`)), 422, "invalid_state", "state")
	wantError(t, do(h, "POST", "/v1/init", "application/json", []byte(`{"state":{},"schema":1}`)), 400, "invalid_request", "schema")
	wantError(t, do(h, "POST", "/v1/init", "application/json", []byte(`{"state":{},"colour":1}`)), 400, "invalid_request", "colour")
	wantError(t, do(h, "POST", "/v1/init", "application/json", []byte(`{"state":`)), 400, "invalid_request", "body")
	wantError(t, do(h, "GET", "/v1/init", "", nil), 405, "invalid_request", "method")
	small := NewHandler(Config{MaxBodyBytes: 1024})
	wantError(t, do(small, "POST", "/v1/init", "application/json", []byte(`{"state":"`+strings.Repeat("x", 2000)+`"}`)), 413, "state_too_large", "body")
	tight := NewHandler(Config{MaxResponseBytes: 1024})
	wantError(t, do(tight, "POST", "/v1/init", "application/json", []byte(`{"state":`+string(state)+`}`)), 413, "limit_exceeds_max", "body")
}
