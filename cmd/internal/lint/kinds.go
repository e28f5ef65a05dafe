package lint

import "github.com/pinholectx/pinhole/internal/jsonval"

// Kinds is what lint's detectors find in a name or a value: the kinds of
// sensitive data it suggests or looks like.
type Kinds struct {
	Credential, Email, Phone, Card, IBAN bool
}

// Any reports whether any kind was found.
func (k Kinds) Any() bool { return k.Credential || k.Email || k.Phone || k.Card || k.IBAN }

// Or is the union of k and o.
func (k Kinds) Or(o Kinds) Kinds {
	return Kinds{k.Credential || o.Credential, k.Email || o.Email, k.Phone || o.Phone, k.Card || o.Card, k.IBAN || o.IBAN}
}

func fromHits(h [numKinds]bool) Kinds {
	return Kinds{h[kindCredential], h[kindEmail], h[kindPhone], h[kindCard], h[kindIBAN]}
}

// NameSuggests reports the kinds a declared name or path token suggests,
// by the checks lint runs on the names of plain fields and state keys.
func NameSuggests(name string) Kinds { return fromHits(nameKinds(name)) }

// ValueLooksLike reports the kinds the strings inside v (any JSON value,
// or nil) look like, by the checks lint runs on sample values.
func ValueLooksLike(v *jsonval.Value) Kinds { return fromHits(classify(v)) }
