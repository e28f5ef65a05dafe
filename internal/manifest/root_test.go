package manifest_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/manifest"
)

// TestRootPointer: "" declares the whole store wherever a pointer is taken,
// also when it is the first pointer the compiler reads, and the overlap
// check sees it.
func TestRootPointer(t *testing.T) {
	for _, tc := range []struct {
		manifest string
		paths    []string
		err      string
	}{
		{`{"pinhole":1,"sessionScope":""}`, []string{""}, ""},
		{`{"pinhole":1,"page":{"route":"","title":"/t"}}`, []string{""}, ""},
		{`{"pinhole":1,"page":{"params":{"from":"","allow":["q"]}}}`, []string{"/q"}, ""},
		{`{"pinhole":1,"page":{"route":""},"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/a","id":"/id","fields":{"x":{"from":"/s","expose":"mask"}}}]}`,
			nil, "/page/route: exposes in plain a value that /collections/0/fields/x declares mask"},
	} {
		plan, err := manifest.Parse([]byte(tc.manifest))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.manifest, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.manifest, err)
		}
		if !reflect.DeepEqual(plan.Reads.Paths, tc.paths) {
			t.Errorf("%s: reads %q, want %q", tc.manifest, plan.Reads.Paths, tc.paths)
		}
		if strings.Contains(tc.manifest, `"sessionScope"`) && (plan.SessionScope == nil || len(plan.SessionScope) != 0) {
			t.Errorf("%s: sessionScope %#v, want the root", tc.manifest, plan.SessionScope)
		}
	}
}
