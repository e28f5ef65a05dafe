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
	return SecretName(name) && IsCredentialUnder(name, value)
}

// SecretName reports whether a name says its value may be a secret: the
// names IsCredentialMember judges a value under. A manifest's names are
// classified once per plan (manifest.Plan.ClassifyNames).
func SecretName(name string) bool {
	const auth = "authorization" // a header's name: "author" alone is a business word
	return classifyName(name) != nameNone || len(name) >= len(auth) && strings.EqualFold(name[len(name)-len(auth):], auth)
}

// IsCredentialUnder is IsCredentialMember for a name SecretName accepts.
func IsCredentialUnder(name, value string) bool {
	if strings.ContainsAny(value, `"\`) {
		value = withoutQuotes(value)
	}
	return IsCredential(`"` + name + `": "` + value + `"`)
}

// withoutQuotes drops the quotes and backslashes from s, so that a value
// written out between quotes cannot end its own string. A loop of its own:
// strings.Replacer would link about 25 KB of code into the module.
func withoutQuotes(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '"' && s[i] != '\\' {
			b = append(b, s[i])
		}
	}
	return string(b)
}
