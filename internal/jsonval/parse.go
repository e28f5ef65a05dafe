package jsonval

import (
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError describes why a document could not be parsed. It names a byte
// offset and never quotes the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return e.Msg + " at byte offset " + strconv.Itoa(e.Offset)
}

type parser struct {
	data  []byte
	src   string // data as one string: unescaped strings and numbers are slices of it
	pos   int
	depth int
	// Values are carved from slabs, and members gathered on shared stacks
	// then copied out at their exact size: parsing a large state is mostly
	// allocation, and this keeps it to a few large blocks.
	slab  []Value
	keys  []string
	vals  []*Value
	items []*Value
	// Arenas for the exact-size member slices (capacity capped, so an
	// append by a later editor copies instead of overwriting a neighbour).
	keyArena  []string
	valArena  []*Value
	slabSize  int
	arenaSize int
}

// grow returns the next arena chunk size for a request of n: chunks start
// small and double up to 4096, so a small request costs little.
func (p *parser) grow(n int) int {
	p.arenaSize = min(max(2*p.arenaSize, 16), 4096)
	return max(p.arenaSize, n)
}

func (p *parser) keySlice(src []string) []string {
	n := len(src)
	if n > len(p.keyArena) {
		p.keyArena = make([]string, p.grow(n))
	}
	out := p.keyArena[:n:n]
	p.keyArena = p.keyArena[n:]
	copy(out, src)
	return out
}

func (p *parser) valSlice(src []*Value) []*Value {
	n := len(src)
	if n > len(p.valArena) {
		p.valArena = make([]*Value, p.grow(n))
	}
	out := p.valArena[:n:n]
	p.valArena = p.valArena[n:]
	copy(out, src)
	return out
}

func (p *parser) alloc(v Value) *Value {
	if len(p.slab) == 0 {
		// Start small (most requests are a few values) and grow.
		p.slabSize = min(max(2*p.slabSize, 8), 256)
		p.slab = make([]Value, p.slabSize)
	}
	n := &p.slab[0]
	*n = v
	p.slab = p.slab[1:]
	return n
}

// Parse parses one JSON document. Whitespace may surround it; anything else
// after it is an error.
func Parse(data []byte) (*Value, error) {
	p := parser{data: data, src: string(data)}
	// First chunks sized from the input (about a value per 16 bytes of
	// compact JSON), so a document of a few KB, such as a manifest, takes
	// one slab and one arena of each kind instead of a doubling series:
	// each size met for the first time costs the Go runtime a new span,
	// dear at start-up under V8's baseline compiler.
	p.slabSize = min(max(len(data)/32, 4), 128)
	p.arenaSize = min(max(len(data)/64, 8), 2048)
	if n := min(len(data)/64, 64); n > 8 {
		vals := make([]*Value, 2*n) // values and items, one allocation
		p.keys, p.vals, p.items = make([]string, 0, n), vals[:0:n], vals[n:n:2*n]
	}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.fail("unexpected data after the JSON value")
	}
	return v, nil
}

func (p *parser) fail(msg string) error { return &SyntaxError{Offset: p.pos, Msg: msg} }

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (*Value, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of JSON input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.alloc(Value{Kind: String, S: s}), nil
	case c == 't':
		return p.literal("true", Value{Kind: Bool, B: true})
	case c == 'f':
		return p.literal("false", Value{Kind: Bool})
	case c == 'n':
		return p.literal("null", Value{Kind: Null})
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.fail("invalid character")
}

func (p *parser) literal(word string, v Value) (*Value, error) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return nil, p.fail("invalid literal")
	}
	p.pos += len(word)
	return p.alloc(v), nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.fail("nesting deeper than " + strconv.Itoa(MaxDepth) + " levels")
	}
	return nil
}

func (p *parser) object() (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++ // {
	v := p.alloc(Value{Kind: Object})
	base := len(p.keys)
	err := p.members(v, base)
	p.keys, p.vals = p.keys[:base], p.vals[:base]
	if err != nil {
		return nil, err
	}
	p.depth--
	return v, nil
}

// members parses an object's members and its closing brace into v; the
// members gather on p.keys and p.vals from base. Each member is parsed by
// a call, and the object is finished by another, so that the loop stays
// short (see plainRun).
func (p *parser) members(v *Value, base int) error {
	p.skipSpace()
	if p.next('}') {
		return nil
	}
	var seen map[string]struct{}
	for {
		if err := p.member(base, &seen); err != nil {
			return err
		}
		p.skipSpace()
		if !p.next(',') {
			break
		}
	}
	if !p.next('}') {
		return p.failEnd("expected ',' or '}' in object")
	}
	p.finish(v, base, seen != nil)
	return nil
}

// finish gives v the members gathered from base, indexed when the object
// is large enough to have been checked through a set.
func (p *parser) finish(v *Value, base int, index bool) {
	v.Keys = p.keySlice(p.keys[base:])
	v.Vals = p.valSlice(p.vals[base:])
	if index {
		v.index = indexKeys(v.Keys)
	}
}

// member parses one member of the object whose members start at base
// onto p.keys and p.vals.
//
// It is kept small: V8 charges a function's tier-up budget at each return
// by the size of the code before it, and a start-up returns from here once
// per member of the manifest (BENCHMARKS.md, "A larger manifest and V8's
// tier-up budgets"). The appends stay here: moved to a function of their
// own, they had V8 recompile the runtime's stack map lookup instead.
func (p *parser) member(base int, seen *map[string]struct{}) error {
	k, err := p.key(base, seen)
	if err != nil {
		return err
	}
	val, err := p.value()
	if err != nil {
		return err
	}
	p.keys = append(p.keys, k)
	p.vals = append(p.vals, val)
	return nil
}

// colon parses the ':' after a member's key, and the blanks around it.
func (p *parser) colon() error {
	p.skipSpace()
	if !p.next(':') {
		return p.fail("expected ':' after object key")
	}
	p.skipSpace()
	return nil
}

// key parses a member's key, which must not repeat one of the keys
// gathered from base, and the ':' after it (colon: in member, it made that
// function large enough to be recompiled at start-up).
func (p *parser) key(base int, seen *map[string]struct{}) (string, error) {
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", p.fail("expected a string key")
	}
	keyAt := p.pos
	k, err := p.str()
	if err != nil {
		return "", err
	}
	// Duplicate keys are rejected: parsers disagree on which one wins.
	if p.repeated(k, base, seen) {
		return "", &SyntaxError{Offset: keyAt, Msg: "duplicate object key"}
	}
	return k, p.colon()
}

// repeated reports whether k is one of the keys gathered from base. An
// object of indexMin keys or more is checked through the set seen, made
// on first use.
func (p *parser) repeated(k string, base int, seen *map[string]struct{}) bool {
	mine := p.keys[base:]
	if len(mine) < indexMin {
		return slices.Contains(mine, k)
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, 2*len(mine))
		for _, old := range mine {
			(*seen)[old] = struct{}{}
		}
	}
	if _, dup := (*seen)[k]; dup {
		return true
	}
	(*seen)[k] = struct{}{}
	return false
}

// next consumes c when it is the next byte.
func (p *parser) next(c byte) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// failEnd is fail(msg), or the end-of-input error at the end of the input.
func (p *parser) failEnd(msg string) error {
	if p.pos >= len(p.data) {
		return p.fail("unexpected end of JSON input")
	}
	return p.fail(msg)
}

// indexKeys returns the positions of keys, for Get.
func indexKeys(keys []string) map[string]int {
	index := make(map[string]int, len(keys))
	for i, k := range keys {
		index[k] = i
	}
	return index
}

func (p *parser) array() (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++ // [
	v := p.alloc(Value{Kind: Array})
	base := len(p.items)
	err := p.elements(v, base)
	p.items = p.items[:base]
	if err != nil {
		return nil, err
	}
	p.depth--
	return v, nil
}

// elements parses an array's elements and its closing bracket into v; the
// items gather on p.items from base.
func (p *parser) elements(v *Value, base int) error {
	p.skipSpace()
	if p.next(']') {
		return nil
	}
	for {
		if err := p.element(); err != nil {
			return err
		}
		p.skipSpace()
		if !p.next(',') {
			break
		}
	}
	if !p.next(']') {
		return p.failEnd("expected ',' or ']' in array")
	}
	v.Items = p.valSlice(p.items[base:])
	return nil
}

// element parses one array element onto p.items.
func (p *parser) element() error {
	p.skipSpace()
	item, err := p.value()
	if err != nil {
		return err
	}
	p.items = append(p.items, item)
	return nil
}

func (p *parser) number() (*Value, error) {
	start := p.pos
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(d) && d[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.fail("invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	return p.alloc(Value{Kind: Number, S: p.src[start:p.pos]}), nil
}

// str parses a string starting at the opening quote.
func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	end, ascii := plainRun(p.data, start)
	if end < len(p.data) && p.data[end] == '"' {
		// The common case: no escapes.
		s := p.src[start:end]
		if !ascii && !utf8.ValidString(s) {
			return "", &SyntaxError{Offset: start, Msg: "invalid UTF-8 in string"}
		}
		p.pos = end + 1
		return s, nil
	}
	p.pos = end
	return p.escaped(start, ascii)
}

// plainRun returns where the run of bytes from i that a string holds as
// they are ends (the first '"', '\\' or control character, or len(d)), and
// whether the run is all ASCII.
//
// Loops that run often during start-up live in small functions like this
// one: V8 charges a WebAssembly function's tier-up budget by the machine
// code distance of every loop back-edge and return, so a loop inside a
// large function soon gets that whole function recompiled by TurboFan
// while the module starts (BENCHMARKS.md, "Tier-up budgets at start-up").
//
// It reads eight bytes a step and finds the byte that ends the run within
// its word, so that its loop turns about once for a manifest's short keys
// instead of once a byte: a start-up that read a byte a step here used up
// this function's budget once the manifest passed about 2.5 KB
// (BENCHMARKS.md, "A larger manifest and V8's tier-up budgets"). The word
// tests are written out: the module is built without inlining (Makefile,
// WASM_FLAGS).
func plainRun(d []byte, i int) (end int, ascii bool) {
	const ones, top = 0x0101010101010101, 0x8080808080808080
	var seen uint64
	for ; i+8 <= len(d); i += 8 {
		_ = d[i+7]
		x := uint64(d[i]) | uint64(d[i+1])<<8 | uint64(d[i+2])<<16 | uint64(d[i+3])<<24 |
			uint64(d[i+4])<<32 | uint64(d[i+5])<<40 | uint64(d[i+6])<<48 | uint64(d[i+7])<<56
		// The top bit of each byte below 0x20, or that is a quote or a
		// backslash (a zero byte of q or b): "has a byte less than", bit by
		// bit. Above a flagged byte a flag may be false, never below one,
		// so the lowest flag is the first byte that ends the run.
		q, b := x^(ones*'"'), x^(ones*'\\')
		if m := ((x-ones*0x20)&^x | (q-ones)&^q | (b-ones)&^b) & top; m != 0 {
			k := bits.TrailingZeros64(m) / 8
			seen |= x & (1<<(8*k) - 1)
			return i + k, seen&top == 0
		}
		seen |= x
	}
	for ; i < len(d); i++ {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		seen |= uint64(c)
	}
	return i, seen&top == 0
}

// StringRun returns the end of the string contents that start at i in d:
// the index of the first quote, backslash or control byte at or after i, or
// len(d). It reads eight bytes a step (plainRun); the Worker's body
// splitter skips string contents with it.
func StringRun(d []byte, i int) int {
	end, _ := plainRun(d, i)
	return end
}

// escaped parses the rest of a string that started at start and holds an
// escape or a fault at p.pos; ascii tells whether the bytes before p.pos
// were all ASCII.
func (p *parser) escaped(start int, ascii bool) (string, error) {
	d := p.data
	buf := make([]byte, 0, p.pos-start+16)
	buf = append(buf, d[start:p.pos]...)
	for {
		end, a := plainRun(d, p.pos)
		buf = append(buf, d[p.pos:end]...)
		ascii = ascii && a
		p.pos = end
		if p.pos >= len(d) {
			return "", p.fail("unexpected end of JSON input in string")
		}
		switch c := d[p.pos]; {
		case c == '"':
			if !ascii && !utf8.Valid(buf) {
				return "", &SyntaxError{Offset: start, Msg: "invalid UTF-8 in string"}
			}
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		}
		p.pos++ // backslash
		if p.pos >= len(d) {
			return "", p.fail("unexpected end of JSON input in string")
		}
		e := d[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.unicodeEscape()
			if !ok {
				return "", p.fail("invalid \\u escape")
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.fail("invalid escape in string")
		}
	}
}

// unicodeEscape reads the four hex digits after "\u" and, for a surrogate,
// the escape of its pair. A lone surrogate is U+FFFD; ok is false for
// malformed hex digits.
func (p *parser) unicodeEscape() (r rune, ok bool) {
	d := p.data
	if r, ok = p.hex4(); !ok || !utf16.IsSurrogate(r) {
		return r, ok
	}
	if p.pos+1 >= len(d) || d[p.pos] != '\\' || d[p.pos+1] != 'u' {
		return utf8.RuneError, true // lone surrogate
	}
	save := p.pos
	p.pos += 2
	r2, ok := p.hex4()
	if !ok {
		return 0, false
	}
	if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
		return dec, true
	}
	p.pos = save // the second escape stands on its own
	return utf8.RuneError, true
}

func (p *parser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := p.data[p.pos+i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	p.pos += 4
	return r, true
}
