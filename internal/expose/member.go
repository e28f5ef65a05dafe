package expose

import "strings"

// IsCredentialMember reports whether a member of a composite value (or a
// value under its manifest name) holds a secret by its name. The store's
// values reach the module as objects, not as JSON text, so the member is
// judged as the same pair written out, {"name": "value"}, would be: by the
// rules that read a value after its name. Quotes and backslashes in the
// value are left out of the pair, so that none can end the value early and
// part the rest from its name.
func IsCredentialMember(name, value string) bool {
	if classifyName(name) == nameNone && !strings.HasSuffix(strings.ToLower(name), "authorization") {
		return false
	}
	v := strings.NewReplacer(`"`, "", `\`, "").Replace(value)
	return IsCredential(`"` + name + `": "` + v + `"`)
}
