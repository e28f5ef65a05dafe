package project_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
)

// FuzzDescribeRequest sends arbitrary describe requests to a session
// holding the bundled orders example. Every answer is valid JSON within
// maxResponseBytes; a window's returned, next and total agree with the
// records; a selection answers exactly the ids asked for, in order; and no
// protected or undeclared value of the example (card and phone numbers,
// internal notes, the session token) appears.
func FuzzDescribeRequest(f *testing.F) {
	seeds, err := os.ReadFile("../../testdata/fuzz/describe.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(seeds))
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	manifest, err := os.ReadFile("../../testdata/orders/manifest.json")
	if err != nil {
		f.Fatal(err)
	}
	state, err := os.ReadFile("../../testdata/orders/state.json")
	if err != nil {
		f.Fatal(err)
	}
	var st struct {
		Session struct{ Token string }
		Orders  struct {
			Items []struct {
				Customer     struct{ Phone string }
				Payment      struct{ Card string }
				InternalNote string
			}
		}
	}
	if err := json.Unmarshal(state, &st); err != nil {
		f.Fatal(err)
	}
	secrets := []string{st.Session.Token}
	for _, it := range st.Orders.Items {
		secrets = append(secrets, it.Payment.Card, it.Customer.Phone, it.InternalNote)
	}
	s := session.New()
	s.Call([]byte(`{"op":"load","key":"fuzz-describe-key-1","manifest":` + string(manifest) + `}`))
	if out := s.Call([]byte(`{"op":"observe","state":` + string(state) + `}`)); !bytes.Contains(out, []byte(`"recordsTotal":48`)) {
		f.Fatalf("observe: %s", out)
	}
	f.Fuzz(func(t *testing.T, req []byte) {
		v, err := jsonval.Parse(req)
		if err == nil && v.Kind == jsonval.Object {
			v.Set("op", jsonval.NewString("describe"))
			req = jsonval.Marshal(v)
		}
		out := s.Call(req)
		if !json.Valid(out) {
			t.Fatalf("invalid JSON: %q", out)
		}
		if len(out) > 65536 {
			t.Fatalf("%d bytes exceed maxResponseBytes", len(out))
		}
		for _, sec := range secrets {
			if bytes.Contains(out, []byte(sec)) {
				t.Fatalf("%q appears in %s", sec, out)
			}
		}
		var r struct {
			Error   *struct{ Code string }
			Context *struct {
				Records []struct{ ID string }
				Window  *struct {
					Offset, Limit, Returned, Total int
					Next                           *int
				} `json:"recordWindow"`
				RecordIdsTotal int
			}
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		if r.Error != nil {
			return
		}
		ctx := r.Context
		if ctx.RecordIdsTotal != 48 {
			t.Fatalf("recordIdsTotal %d", ctx.RecordIdsTotal)
		}
		var asked struct{ Record []json.RawMessage }
		json.Unmarshal(req, &asked)
		if asked.Record != nil {
			if len(ctx.Records) > len(asked.Record) {
				t.Fatalf("%d records for %d ids", len(ctx.Records), len(asked.Record))
			}
			for i, rec := range ctx.Records {
				var id any
				json.Unmarshal(asked.Record[i], &id)
				if want, ok := id.(string); ok && rec.ID != want {
					t.Fatalf("records[%d] is %s, asked %s", i, rec.ID, want)
				}
			}
			return
		}
		w := ctx.Window
		if w == nil {
			if len(ctx.Records) != 48 {
				t.Fatalf("%d records without a window", len(ctx.Records))
			}
			return
		}
		if w.Returned != len(ctx.Records) || w.Total != 48 || w.Returned > w.Limit {
			t.Fatalf("window %+v for %d records", w, len(ctx.Records))
		}
		if end := w.Offset + w.Returned; (end < 48) != (w.Next != nil) || (w.Next != nil && *w.Next != end) {
			t.Fatalf("window %+v: next is wrong", w)
		}
	})
}
