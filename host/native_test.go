package host

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/pinholectx/pinhole"
)

// TestSameAsNative: the wazero Session and the native pinhole.Session take
// the same typed calls and answer byte for byte alike, errors included, and
// both report errors as *pinhole.Error.
func TestSameAsNative(t *testing.T) {
	ctx := context.Background()
	w, n := newSession(t), pinhole.NewSession()
	const key = "a fixed key of 24 bytes!"
	m, st := readFile(t, "orders/manifest.json"), readFile(t, "orders/state.json")
	shipped := bytes.Replace(st, []byte(`"Ready to ship"`), []byte(`"Shipped"`), 1)
	patch := []byte(`[{"op":"replace","path":"/orders/items/1/status","value":"Ready to ship"}]`)
	badPatch := []byte(`[{"op":"remove","path":"/orders/items/-0"},{"op":"remove","path":"/orders/filter/+0"}]`)
	steps := []struct {
		name   string
		wasm   func() ([]byte, error)
		native func() ([]byte, error)
		code   string
	}{
		{"load", func() ([]byte, error) { return w.Load(ctx, m, key) }, func() ([]byte, error) { return n.Load(m, key) }, ""},
		{"observe", func() ([]byte, error) { return w.Observe(ctx, st) }, func() ([]byte, error) { return n.Observe(st) }, ""},
		{"describe", func() ([]byte, error) { return w.Describe(ctx, []byte(`{"limit":2}`)) }, func() ([]byte, error) { return n.Describe([]byte(`{"limit":2}`)) }, ""},
		{"describe error", func() ([]byte, error) { return w.Describe(ctx, []byte(`{"record":["SO-0"]}`)) }, func() ([]byte, error) { return n.Describe([]byte(`{"record":["SO-0"]}`)) }, pinhole.CodeUnknownRecord},
		{"prepare", func() ([]byte, error) {
			return w.Prepare(ctx, pinhole.PrepareRequest{Capability: "order.ship", Record: "SO-1001", Input: []byte(`{"carrier":"ups"}`), Snapshot: "s1"})
		}, func() ([]byte, error) {
			return n.Prepare(pinhole.PrepareRequest{Capability: "order.ship", Record: "SO-1001", Input: []byte(`{"carrier":"ups"}`), Snapshot: "s1"})
		}, ""},
		{"prepare error", func() ([]byte, error) {
			return w.Prepare(ctx, pinhole.PrepareRequest{Capability: "order.ship", Record: "SO-1001", Input: []byte(`{"carrier":"fedex"}`)})
		}, func() ([]byte, error) {
			return n.Prepare(pinhole.PrepareRequest{Capability: "order.ship", Record: "SO-1001", Input: []byte(`{"carrier":"fedex"}`)})
		}, pinhole.CodeInvalidInput},
		{"observe change", func() ([]byte, error) { return w.Observe(ctx, shipped) }, func() ([]byte, error) { return n.Observe(shipped) }, ""},
		{"after", func() ([]byte, error) { return w.After(ctx, "s1") }, func() ([]byte, error) { return n.After("s1") }, ""},
		{"patch", func() ([]byte, error) { return w.ObservePatch(ctx, patch) }, func() ([]byte, error) { return n.ObservePatch(patch) }, ""},
		{"patch error", func() ([]byte, error) { return w.ObservePatch(ctx, badPatch) }, func() ([]byte, error) { return n.ObservePatch(badPatch) }, pinhole.CodeInvalidState},
		{"after patch", func() ([]byte, error) { return w.After(ctx, "s2") }, func() ([]byte, error) { return n.After("s2") }, ""},
		{"after error", func() ([]byte, error) { return w.After(ctx, "s9") }, func() ([]byte, error) { return n.After("s9") }, pinhole.CodeStaleSnapshot},
	}
	for _, step := range steps {
		wo, we := step.wasm()
		no, ne := step.native()
		if !bytes.Equal(wo, no) {
			t.Fatalf("%s: wazero answered\n%s\nnative\n%s", step.name, wo, no)
		}
		for _, err := range []error{we, ne} {
			var pe *pinhole.Error
			if step.code == "" && err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			if step.code != "" && (!errors.As(err, &pe) || pe.Code != step.code) {
				t.Fatalf("%s: got %v, want %s", step.name, err, step.code)
			}
		}
	}
}
