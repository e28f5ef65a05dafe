package expose

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

func TestResolveTokens(t *testing.T) {
	card := "ph_" + strings.Repeat("c", 24)
	phone := "al_" + strings.Repeat("p", 24)
	other := "ph_" + strings.Repeat("o", 24)
	known := map[string]string{card: `"4242424242424242"`, phone: `"+1 555 0100"`, other: `"4000000000000002"`}
	slots := []Slot{
		{At: jsonval.Pointer{"card"}, Prefix: PlaceholderPrefix},
		{At: jsonval.Pointer{"contact", "phone"}, Prefix: AliasPrefix},
	}
	// Slot 0 accepts only card: other is a token of another record.
	resolve := func(slot int, tok string) (*jsonval.Value, bool) {
		if slot == 0 && tok == other {
			return nil, false
		}
		s, ok := known[tok]
		if !ok {
			return nil, false
		}
		v, err := jsonval.Parse([]byte(s))
		return v, err == nil
	}
	ph := func(tok string) string { return `{"$placeholder":"` + tok + `"}` }
	cases := []struct {
		name, in, want string
		param          string // of the error, when want is ""
	}{
		{"nothing to resolve", `{"a":[1,"x",{"b":null}],"al_":"al_x"}`, `{"a":[1,"x",{"b":null}],"al_":"al_x"}`, ""},
		{"placeholder slot", `{"card":` + ph(card) + `,"n":1}`, `{"card":"4242424242424242","n":1}`, ""},
		{"nested alias slot", `{"contact":{"phone":"` + phone + `"}}`, `{"contact":{"phone":"+1 555 0100"}}`, ""},
		{"resolve refuses", `{"card":` + ph(other) + `}`, "", "/card"},
		{"unknown token in a slot", `{"card":` + ph("ph_"+strings.Repeat("z", 24)) + `}`, "", "/card"},
		{"alias in a placeholder slot", `{"card":"` + phone + `"}`, "", "/card"},
		{"placeholder in an alias slot", `{"contact":{"phone":` + ph(card) + `}}`, "", "/contact/phone"},
		{"plain text in a slot", `{"card":"4242424242424242"}`, "", "/card"},
		{"placeholder with two members", `{"card":{"$placeholder":"` + card + `","x":1}}`, "", "/card"},
		{"alias outside a slot", `{"note":"` + phone + `"}`, "", "/note"},
		{"alias inside text", `{"note":"call ` + phone + `."}`, "", "/note"},
		{"alias in capitals", `{"note":"` + strings.ToUpper(phone) + `"}`, "", "/note"},
		{"alias split by a zero-width space", `{"note":"al_\u200b` + phone[3:] + `"}`, "", "/note"},
		{"token split in a member name", `{"a":{"ph_\u2060` + card[3:] + `":1}}`, "", "/a"},
		{"alias in an array", `{"a":[0,["` + phone + `"]]}`, "", "/a/1/0"},
		{"placeholder in an object", `{"a":{"b~/":` + ph(card) + `}}`, "", "/a/b~0~1"},
		{"placeholder object with a made-up token outside a slot", `{"a":{"$placeholder":7}}`, "", "/a"},
		{"token as a member name", `{"a":{"` + phone + `":1}}`, "", "/a"},
		{"a long member name is not repeated", `{"a":{"` + strings.Repeat("n", 200) + `":{"b":"` + phone + `"}}}`, "", "/a"},
		{"a credential-shaped member name is not repeated", `{"a":{"ghp_` + strings.Repeat("R8kQ2vZpX7", 3) + `mLw3Nc":"` + phone + `"}}`, "", "/a"},
		{"whole input a placeholder", ph(card), "", ""},
		{"slot path inside an array is no slot", `{"list":[{"card":` + ph(card) + `}]}`, "", "/list/0/card"},
		{"resolved values are not walked again", `{"card":` + ph(card) + `,"contact":{"phone":"` + phone + `"}}`,
			`{"card":"4242424242424242","contact":{"phone":"+1 555 0100"}}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := jsonval.Parse([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			out, rerr := ResolveTokens(in, slots, resolve)
			if c.want == "" {
				if rerr == nil || rerr.Code != "invalid_input" || rerr.Param != c.param {
					t.Fatalf("want invalid_input at %q, got %v, %v", c.param, rerr, out)
				}
				for tok, v := range known {
					if strings.Contains(rerr.Message, tok) || strings.Contains(rerr.Message, strings.Trim(v, `"`)) {
						t.Fatal("the message quotes the input")
					}
				}
				return
			}
			if rerr != nil {
				t.Fatal(rerr)
			}
			if s := string(jsonval.Marshal(out)); s != c.want {
				t.Fatalf("got %s, want %s", s, c.want)
			}
			if c.want == c.in && out != in {
				t.Fatal("an input without tokens was copied")
			}
		})
	}
	if out, err := ResolveTokens(nil, slots, resolve); out != nil || err != nil {
		t.Fatalf("nil input: %v %v", out, err)
	}
}

func TestResolveTokensShares(t *testing.T) {
	tok := "ph_" + strings.Repeat("c", 24)
	in, _ := jsonval.Parse([]byte(`{"keep":{"deep":[1,2]},"card":{"$placeholder":"` + tok + `"}}`))
	out, err := ResolveTokens(in, []Slot{{At: jsonval.Pointer{"card"}, Prefix: PlaceholderPrefix}},
		func(int, string) (*jsonval.Value, bool) { return jsonval.NewString("v"), true })
	if err != nil {
		t.Fatal(err)
	}
	if out == in || out.Vals[0] != in.Vals[0] || in.Vals[1].Kind != jsonval.Object {
		t.Fatal("want a new root sharing the untouched member, and the input unchanged")
	}
}

func TestHasToken(t *testing.T) {
	tok := "al_" + strings.Repeat("a", 23) + "7"
	cases := []struct {
		s    string
		want bool
	}{
		{tok, true},
		{"ph_" + tok[3:], true},
		{"see " + tok + ".", true},
		{"(" + tok + ")", true},
		{strings.ToUpper(tok), true},
		{"x" + tok, false},          // part of a longer word
		{"total_" + tok[3:], false}, // "al_" inside a word
		{tok + "a", false},          // 25 characters
		{tok + "_x", false},
		{tok[:26], false}, // 23 characters
		{"al_" + strings.Repeat("1", 24), false},
		{"al_", false},
		{"", false},
	}
	for _, c := range cases {
		if got := HasToken(c.s); got != c.want {
			t.Errorf("HasToken(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	if !IsToken(tok, AliasPrefix) || IsToken(tok, PlaceholderPrefix) || IsToken(" "+tok, AliasPrefix) || IsToken(strings.ToUpper(tok), AliasPrefix) {
		t.Fatal("IsToken")
	}
}

// Every token the Keyer hands out has the shape HasToken and IsToken know.
func TestKeyerTokensHaveTheShape(t *testing.T) {
	k := NewKeyer([]byte("0123456789abcdef"))
	for _, v := range []string{`"x"`, `1`, `{"a":[1]}`, `null`} {
		jv, _ := jsonval.Parse([]byte(v))
		a, p := k.Alias(jv), k.Placeholder(jv)
		if !IsToken(a, AliasPrefix) || !IsToken(p, PlaceholderPrefix) || !HasToken(a) || !HasToken(p) {
			t.Fatalf("tokens %s %s do not have the token shape", a, p)
		}
	}
}

// FuzzResolveTokens: whatever the input, no string or member name that
// holds a token survives outside a slot, a slot holds only what resolve
// gave, and the input is never modified.
func FuzzResolveTokens(f *testing.F) {
	tok := "ph_" + strings.Repeat("c", 24)
	for _, s := range []string{`{"card":{"$placeholder":"` + tok + `"}}`, `{"a":["al_` + strings.Repeat("d", 24) + `"]}`,
		`{"card":"x"}`, `{"n":{"card":1}}`, `[]`, `"al_"`, `{"$placeholder":"` + tok + `"}`} {
		f.Add([]byte(s))
	}
	slots := []Slot{{At: jsonval.Pointer{"card"}, Prefix: PlaceholderPrefix}, {At: jsonval.Pointer{"a", "0"}, Prefix: AliasPrefix}}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := jsonval.Parse(data)
		if err != nil {
			return
		}
		before := string(jsonval.Marshal(in))
		out, rerr := ResolveTokens(in, slots, func(int, string) (*jsonval.Value, bool) { return jsonval.NewString("RESOLVED"), true })
		if string(jsonval.Marshal(in)) != before {
			t.Fatal("the input was modified")
		}
		if rerr != nil {
			if rerr.Code != "invalid_input" {
				t.Fatalf("error code %s", rerr.Code)
			}
			return
		}
		var walk func(v *jsonval.Value, at jsonval.Pointer)
		walk = func(v *jsonval.Value, at jsonval.Pointer) {
			switch v.Kind {
			case jsonval.String:
				if HasToken(v.S) {
					t.Fatalf("a token survived at %s", at)
				}
			case jsonval.Array:
				for i, it := range v.Items {
					walk(it, append(append(jsonval.Pointer{}, at...), strconv.Itoa(i)))
				}
			case jsonval.Object:
				for i, k := range v.Keys {
					if HasToken(k) || k == PlaceholderKey {
						t.Fatalf("a token member name survived at %s", at)
					}
					walk(v.Vals[i], append(append(jsonval.Pointer{}, at...), k))
				}
			}
		}
		walk(out, nil)
	})
}
