package expose

// IsCredentialMember reports whether a member of a composite value holds a
// secret by its name. The store's values reach the module as objects, not
// as JSON text, so the net's rule for a value after a secret name
// ({"password": "…"}, {"api_key": "…"}) is applied to each member with its
// name, as it would be to the same pair written out.
func IsCredentialMember(name, value string) bool {
	return classifyName(name) != nameNone && IsCredential(`"`+name+`": "`+value+`"`)
}
