package manifest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/manifest"
)

// TestWatchedPaths: a redescribeOn or sessionScope path is read whole and
// compared raw, so it may not hold a collection, the feedback, a protected
// value or more than a page or state value; one equal to or inside a page or
// state value is compared as shown, and one outside every declared value is
// the app's own signal.
func TestWatchedPaths(t *testing.T) {
	const base = `"page":{"route":"/router/path","params":{"from":"/router/query","allow":["status"]}},` +
		`"regions":[{"id":"r"}],` +
		`"collections":[{"region":"r","from":"/orders/items","id":"/number","fields":{"status":{"from":"/status"},"card":{"from":"/card","expose":"placeholder"}}}],` +
		`"state":{"filter":"/orders/filter","first":"/orders/filter/0","role":"/session/role"},` +
		`"feedback":{"from":"/ui/toasts","text":"/message"}`
	for _, tc := range []struct {
		watch string // members added to the manifest
		err   string // "" when the manifest loads
	}{
		{`"redescribeOn":["/router/path","/orders/filter","/orders/page"],"sessionScope":"/session/tenant"`, ""},
		{`"redescribeOn":["/orders/filter/status","/router/query/status"]`, ""},
		// /orders/filter is a state value, compared as shown with the state
		// value /orders/filter/0 in it.
		{`"redescribeOn":["/orders/filter","/orders/filter/1"]`, ""},
		{`"redescribeOn":["/orders"]`, "/redescribeOn/0: covers /collections/0/fields/card, declared placeholder"},
		{`"redescribeOn":["/ui/page","/orders/items"]`, "/redescribeOn/1: covers /collections/0/fields/card"},
		{`"redescribeOn":["/orders/items/3/note"]`, "/redescribeOn/0: covers /collections/0/from, whose changes the after reports already"},
		{`"redescribeOn":["/orders/items/3/status"]`, "/redescribeOn/0: covers /collections/0/from"},
		{`"redescribeOn":["/ui/toasts/0/kind"]`, "/redescribeOn/0: covers /feedback/from"},
		{`"redescribeOn":["/ui"]`, "/redescribeOn/0: covers /feedback/from"},
		{`"redescribeOn":["/router"]`, "/redescribeOn/0: holds /page/route and more"},
		{`"redescribeOn":["/router/query"]`, "/redescribeOn/0: holds /page/params/allow/0 and more"},
		{`"sessionScope":"/session"`, "/sessionScope: holds /state/role and more"},
		{`"sessionScope":""`, "/sessionScope: covers /collections/0/fields/card"},
		{`"sessionScope":"/orders/items/0/card"`, "/sessionScope: covers /collections/0/fields/card"},
	} {
		m := `{"pinhole":1,` + base + `,` + tc.watch + `}`
		_, err := manifest.Parse([]byte(m))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.watch, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.watch, err, tc.err)
		}
	}
}

// TestConditionReads: a condition's path, or a field condition's field of
// every item, is read whole, so it may not hold a declared value and more
// (undeclared members beside it would enter the module); one equal to or
// inside a declared value, or outside every one, reads only what it names.
func TestConditionReads(t *testing.T) {
	const base = `"page":{"route":"/router/path","params":{"from":"/router/query","allow":["status"]}},` +
		`"regions":[{"id":"r"},{"id":"s","activeWhen":%s}],` +
		`"collections":[{"region":"r","from":"/orders/items","id":"/number","fields":{"status":{"from":"/status"},"name":{"from":"/customer/name"},"card":{"from":"/card","expose":"placeholder"}}}],` +
		`"state":{"filter":"/orders/filter","role":"/session/role"},` +
		`"feedback":{"from":"/ui/toasts","text":"/message"},` +
		`"capabilities":[{"name":"order.ship","description":"Ship it.","scope":"record","region":"r","unavailable":[{"when":%s,"reason":"No."}]}]`
	const ok = `{"path":"/session/role","eq":"clerk"}`
	// The store's root is refused even when nothing else is declared.
	if _, err := manifest.Parse([]byte(`{"pinhole":1,"regions":[{"id":"r","activeWhen":{"path":"","exists":true}}]}`)); err == nil ||
		!strings.Contains(err.Error(), "/regions/0/activeWhen: reads the whole store") {
		t.Errorf("a condition on the store's root: error %v", err)
	}
	for _, tc := range []struct {
		active, when string // the region's activeWhen, the capability's rule
		err          string // "" when the manifest loads
	}{
		{ok, ok, ""},
		// Equal to or inside a declared value, or outside every one.
		{`{"path":"/orders/filter","exists":true}`, `{"field":"/status","eq":"Shipped"}`, ""},
		{`{"path":"/orders/filter/0","eq":"ready"}`, `{"field":"/card","exists":false}`, ""},
		{`{"path":"/flags/beta","eq":true}`, `{"all":[{"field":"/customer/name","exists":true},{"field":"/hold","eq":true}]}`, ""},
		{`{"path":"/orders/items/0/status","eq":"ready"}`, ok, ""},
		// Around declared values.
		{`{"path":"/orders","exists":true}`, ok, "/regions/1/activeWhen: reads /collections/0/id and more"},
		{`{"path":"","exists":true}`, ok, "/regions/1/activeWhen: reads the whole store"},
		{`{"path":"/orders/items/0","exists":true}`, ok, "/regions/1/activeWhen: reads /collections/0/id and more"},
		{`{"not":{"path":"/ui","exists":true}}`, ok, "/regions/1/activeWhen: reads /feedback/text and more"},
		{`{"path":"/session","exists":true}`, ok, "/regions/1/activeWhen: reads /state/role and more"},
		{`{"path":"/router/query","exists":true}`, ok, "/regions/1/activeWhen: reads /page/params/allow/0 and more"},
		{ok, `{"path":"/orders/items","exists":true}`, "/capabilities/0/unavailable/0/when: reads /collections/0/id and more"},
		{ok, `{"field":"","exists":true}`, "/capabilities/0/unavailable/0/when: reads the whole record"},
		{ok, `{"any":[{"field":"/status","eq":"x"},{"field":"/customer","exists":true}]}`, "/capabilities/0/unavailable/0/when: reads /collections/0/fields/name and more"},
	} {
		m := `{"pinhole":1,` + fmt.Sprintf(base, tc.active, tc.when) + `}`
		_, err := manifest.Parse([]byte(m))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s / %s: %v", tc.active, tc.when, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s / %s: error %v, want %q", tc.active, tc.when, err, tc.err)
		}
	}
}
