package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mailru/easyjson/jwriter"
)

// encoded lists one value of every response type; TestEncodedListsEveryType
// keeps it complete.
func encoded() []Encoder {
	return []Encoder{
		&Limits{}, &Capability{}, &Describe{}, &Context{}, &Page{}, &Region{}, &Record{}, &Window{},
		&Feedback{}, &Unavailable{}, &Loaded{}, &Reads{}, &ReadsCollection{}, &Observed{}, &Version{},
		&AuditEvent{}, &Audit{}, &Prepared{}, &Error{}, &ErrorResponse{},
		&After{}, &AfterRecords{}, &AfterCapabilities{}, &Available{}, &Redescribe{},
	}
}

func TestEncodedListsEveryType(t *testing.T) {
	var declared []string
	for _, name := range []string{"wire.go", "errors.go", "after.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); ts.Name.IsExported() {
						if _, ok := ts.Type.(*ast.StructType); ok {
							declared = append(declared, ts.Name.Name)
						}
					}
				}
			}
		}
	}
	var listed []string
	for _, v := range encoded() {
		listed = append(listed, reflect.TypeOf(v).Elem().Name())
	}
	sort.Strings(declared)
	sort.Strings(listed)
	if strings.Join(declared, " ") != strings.Join(listed, " ") {
		t.Fatalf("struct types declared: %v\nlisted in encoded(): %v", declared, listed)
	}
}

// TestEncodeMatchesReference encodes random values of every response type
// with the generated encoders and with reference, a reflection encoder
// that reads the json tags as easyjson did and writes strings with
// easyjson's jwriter: the output must be the same bytes.
func TestEncodeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, proto := range encoded() {
		typ := reflect.TypeOf(proto).Elem()
		t.Run(typ.Name(), func(t *testing.T) {
			for i := 0; i < 300; i++ {
				p := reflect.New(typ)
				fill(rng, p.Elem(), 0, i == 0)
				v := p.Interface().(Encoder)
				got := string(Encode(v))
				w := jwriter.Writer{NoEscapeHTML: true}
				reference(&w, p.Elem())
				want, _ := w.BuildBytes()
				if got != string(want) {
					t.Fatalf("value %d:\n got %s\nwant %s", i, got, want)
				}
				if n := EncodedLen(v); n != len(want) {
					t.Fatalf("value %d: EncodedLen %d, the encoding is %d bytes", i, n, len(want))
				}
			}
		})
	}
}

var (
	strs = []string{"", "a", "order-42", "<b>&</b>", "say \"hi\"\n", "\u2028", "\xff", "é\U0001F600", "\x00\x1f"}
	raws = []string{"", "null", "1", "-0.000", "1e400", `"x"`, `[1,{"a":[]}]`, `{"k":"v"}`}
	rawT = reflect.TypeOf(Raw(nil))
	memT = reflect.TypeOf(Members(nil))
	cntT = reflect.TypeOf(Counts(nil))
)

// fill sets v to a random value; zero leaves it zero (every field empty).
func fill(rng *rand.Rand, v reflect.Value, depth int, zero bool) {
	if zero {
		return
	}
	switch v.Type() {
	case rawT:
		v.SetBytes([]byte(raws[rng.Intn(len(raws))]))
		return
	case memT:
		n := rng.Intn(4) - 1 // -1: nil
		if n < 0 {
			return
		}
		m := make(Members, n)
		for i := range m {
			m[i] = Member{Key: strs[rng.Intn(len(strs))], Value: Raw(raws[rng.Intn(len(raws))])}
		}
		v.Set(reflect.ValueOf(m))
		return
	case cntT:
		n := rng.Intn(4) - 1
		if n < 0 {
			return
		}
		c := make(Counts, n)
		for i := range c {
			c[i] = Count{Key: strs[rng.Intn(len(strs))], N: rng.Intn(3) - 1}
		}
		v.Set(reflect.ValueOf(c))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[rng.Intn(len(strs))])
	case reflect.Int:
		v.SetInt([]int64{0, 0, 1, -1, 7, 1 << 40}[rng.Intn(6)])
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.Pointer:
		if rng.Intn(3) > 0 && depth < 4 {
			p := reflect.New(v.Type().Elem())
			fill(rng, p.Elem(), depth+1, false)
			v.Set(p)
		}
	case reflect.Slice:
		n := rng.Intn(4) - 1
		if n < 0 || depth >= 4 {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			fill(rng, s.Index(i), depth+1, false)
		}
		v.Set(s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(rng, v.Field(i), depth+1, rng.Intn(5) == 0)
		}
	default:
		panic("fill: " + v.Type().String())
	}
}

// reference writes v as easyjson's generated code wrote it.
func reference(w *jwriter.Writer, v reflect.Value) {
	switch v.Type() {
	case rawT:
		w.Raw(v.Bytes(), nil) // empty: null
		return
	case memT, cntT:
		w.RawByte('{')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				w.RawByte(',')
			}
			w.String(v.Index(i).Field(0).String())
			w.RawByte(':')
			reference(w, v.Index(i).Field(1))
		}
		w.RawByte('}')
		return
	}
	switch v.Kind() {
	case reflect.String:
		w.String(v.String())
	case reflect.Int:
		w.Int(int(v.Int()))
	case reflect.Bool:
		w.Bool(v.Bool())
	case reflect.Pointer:
		if v.IsNil() {
			w.RawString("null")
		} else {
			reference(w, v.Elem())
		}
	case reflect.Slice:
		if v.IsNil() {
			w.RawString("null")
			return
		}
		w.RawByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				w.RawByte(',')
			}
			reference(w, v.Index(i))
		}
		w.RawByte(']')
	case reflect.Struct:
		w.RawByte('{')
		first := true
		for i := 0; i < v.NumField(); i++ {
			name, opts, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			f := v.Field(i)
			if opts == "omitempty" && f.IsZero() || opts == "omitempty" && f.Kind() == reflect.Slice && f.Len() == 0 {
				continue
			}
			if !first {
				w.RawByte(',')
			}
			first = false
			w.String(name)
			w.RawByte(':')
			reference(w, f)
		}
		w.RawByte('}')
	default:
		panic("reference: " + v.Type().String())
	}
}

// TestEncodeConcurrent: callers on many goroutines (a Go server with a
// session per agent) never see each other's bytes through the reused buffer.
func TestEncodeConcurrent(t *testing.T) {
	vals := make([]*Feedback, 8)
	want := make([]string, len(vals))
	for i := range vals {
		vals[i] = &Feedback{Level: "error", Text: strings.Repeat(string(rune('a'+i)), 100*(i+1)), Source: "app"}
		want[i] = string(Encode(vals[i]))
	}
	done := make(chan string, len(vals))
	for g := range vals {
		go func() {
			for n := 0; n < 2000; n++ {
				i := (g + n) % len(vals)
				if got := string(Encode(vals[i])); got != want[i] {
					done <- got
					return
				}
			}
			done <- ""
		}()
	}
	for range vals {
		if got := <-done; got != "" {
			t.Fatalf("a concurrent Encode returned %q", got)
		}
	}
}

// TestEncodeOwnsItsBytes: the slice Encode returns is not the reused buffer.
func TestEncodeOwnsItsBytes(t *testing.T) {
	a := Encode(&Region{ID: "first"})
	keep := string(a)
	Encode(&Region{ID: "second, longer"})
	if string(a) != keep {
		t.Fatalf("an earlier result changed to %s", a)
	}
}
