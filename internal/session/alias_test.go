package session_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/session"
)

const aliasManifest = `{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/c","id":"/id",
 "fields":{"phone":{"from":"/phone","expose":"alias"},"card":{"from":"/card","expose":"placeholder"}}}]}`

const aliasState = `{"c":[{"id":"a","phone":"+44 20 7946 0123","card":"4242"},{"id":"b","phone":"+44 20 7946 0123","card":"4242"},{"id":"c","phone":"+44 20 7946 0124","card":"4243"}]}`

var tokenRe = regexp.MustCompile(`(al|ph)_[a-z2-7]+`)

// tokens loads the alias manifest in a fresh session (with key, or a random
// one when key is empty) and returns the tokens of records a, b and c.
func tokens(t *testing.T, key string) []string {
	t.Helper()
	s := session.NewWithRandom(func(b []byte) error { _, err := rand.Read(b); return err })
	load := `{"op":"load","manifest":` + aliasManifest
	if key != "" {
		load += `,"key":"` + key + `"`
	}
	for _, req := range []string{load + `}`, `{"op":"observe","state":` + aliasState + `}`} {
		if out := s.Call([]byte(req)); strings.HasPrefix(string(out), `{"error"`) {
			t.Fatalf("%s", out)
		}
	}
	return tokenRe.FindAllString(string(s.Call([]byte(`{"op":"describe"}`))), -1)
}

func TestAliasesArePerSession(t *testing.T) {
	one, two := tokens(t, ""), tokens(t, "")
	if len(one) != 6 || len(two) != 6 {
		t.Fatalf("want 6 tokens (alias and placeholder of 3 records), got %v and %v", one, two)
	}
	// Within a session the same value gives the same token, another value another.
	if one[0] != one[2] || one[1] != one[3] {
		t.Errorf("same value, different tokens in one session: %v", one)
	}
	if one[0] == one[4] || one[1] == one[5] {
		t.Errorf("different values, same token: %v", one)
	}
	// Across sessions with host randomness, nothing links them.
	for i := range one {
		if one[i] == two[i] {
			t.Errorf("token %d is the same in two random sessions: %s", i, one[i])
		}
	}
	// A fixed key (conformance vectors) is stable.
	if a, b := tokens(t, key), tokens(t, key); strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("a fixed key must give stable tokens: %v vs %v", a, b)
	}
}

// TestAliasesCannotBeReversed plays the agent: it knows the alias, the
// format of the value (a London phone number: 10,000 candidates) and the
// derivation, but not the session key. Neither a dictionary under guessable
// keys nor plain hashes of the candidates find the value.
func TestAliasesCannotBeReversed(t *testing.T) {
	alias := tokens(t, "")[0]
	guessKeys := []string{"", "pinhole", key, "0000000000000000"}
	for n := 0; n < 10000; n++ {
		candidate := fmt.Sprintf("+44 20 7946 %04d", n)
		v := jsonval.NewString(candidate)
		for _, k := range guessKeys {
			if expose.NewKeyer([]byte(k)).Alias(v) == alias {
				t.Fatalf("alias recovered with guessed key %q", k)
			}
		}
		sum := sha256.Sum256([]byte(candidate))
		if strings.Contains(alias, hex.EncodeToString(sum[:])[:8]) {
			t.Fatalf("alias contains a plain hash of the value")
		}
		if strings.Contains(alias, strings.ReplaceAll(candidate, " ", "")) {
			t.Fatalf("alias contains the value")
		}
	}
}

// A zero Session draws its key from the randomness UseRandom gives it, as
// the module's session (a value in its data) does; without it, a load
// needs a key.
func TestUseRandom(t *testing.T) {
	load := []byte(`{"op":"load","manifest":` + aliasManifest + `}`)
	var bare session.Session
	if out := bare.Call(load); !strings.HasPrefix(string(out), `{"error"`) {
		t.Fatalf("a keyless load without randomness answered %s", out)
	}
	var s session.Session
	drawn := 0
	s.UseRandom(func(b []byte) error { drawn += len(b); _, err := rand.Read(b); return err })
	if out := s.Call(load); strings.HasPrefix(string(out), `{"error"`) || drawn == 0 {
		t.Fatalf("a keyless load with randomness: %s (%d bytes drawn)", out, drawn)
	}
}
