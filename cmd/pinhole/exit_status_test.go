package main

import (
	"strings"
	"testing"
)

// The usage text's exit statuses hold for an invalid manifest: describe
// prints the module's error answer and exits 1, as for any error answer;
// lint cannot load it and exits 2.
func TestInvalidManifestExitStatus(t *testing.T) {
	m := writeFile(t, "manifest.json", `{"pinhole":1,"regions":"x"}`)
	s := writeFile(t, "state.json", `{}`)
	if code, _, _ := runCLI("lint", "--manifest", m); code != exitUsage {
		t.Errorf("lint: exit %d, want %d", code, exitUsage)
	}
	if code, out, _ := runCLI("describe", "--manifest", m, "--state", s); code != exitFailed || !strings.Contains(out, `"invalid_manifest"`) {
		t.Errorf("describe with an invalid manifest: exit %d, want %d with the error answer (%s)", code, exitFailed, out)
	}
	_, out, errOut := runCLI("help")
	if usage := strings.Join(strings.Fields(out+errOut), " "); !strings.Contains(usage, "an invalid manifest is one") || !strings.Contains(usage, "a manifest lint cannot load") {
		t.Errorf("the usage text does not say so:\n%s", usage)
	}
}
