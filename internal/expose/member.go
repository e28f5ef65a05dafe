package expose

// IsCredentialMember reports whether a member of a composite value holds a
// secret by its name. The store's values reach the module as objects, not
// as JSON text, so the net's rule for a value given under a secret name
// ({"password": "…"}, {"api_key": "…"}) is applied to each member with its
// name: the value is judged as after "=" (namedValue), whatever it holds,
// and the pair written out is judged too, for the rules that read names
// and values together.
func IsCredentialMember(name, value string) bool {
	if classifyName(name) == nameNone {
		return false
	}
	return namedValue(name, normalize(value)) || IsCredential(`"`+name+`": "`+value+`"`)
}
