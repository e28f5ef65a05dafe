package jsonval

import (
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
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return v, nil
	}
	base := len(p.keys)
	defer func() { p.keys, p.vals = p.keys[:base], p.vals[:base] }()
	var seen map[string]struct{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("expected a string key")
		}
		keyAt := p.pos
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		// Duplicate keys are rejected: parsers disagree on which one wins.
		if mine := p.keys[base:]; len(mine) < indexMin {
			for _, old := range mine {
				if old == k {
					return nil, &SyntaxError{Offset: keyAt, Msg: "duplicate object key"}
				}
			}
		} else {
			if seen == nil {
				seen = make(map[string]struct{}, 32)
				for _, old := range mine {
					seen[old] = struct{}{}
				}
			}
			if _, dup := seen[k]; dup {
				return nil, &SyntaxError{Offset: keyAt, Msg: "duplicate object key"}
			}
			seen[k] = struct{}{}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("expected ':' after object key")
		}
		p.pos++
		p.skipSpace()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		p.keys = append(p.keys, k)
		p.vals = append(p.vals, val)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of JSON input")
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] == '}' {
			p.pos++
			p.depth--
			v.Keys = p.keySlice(p.keys[base:])
			v.Vals = p.valSlice(p.vals[base:])
			if seen != nil {
				v.index = make(map[string]int, len(v.Keys))
				for i, k := range v.Keys {
					v.index[k] = i
				}
			}
			return v, nil
		}
		return nil, p.fail("expected ',' or '}' in object")
	}
}

func (p *parser) array() (*Value, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++ // [
	v := p.alloc(Value{Kind: Array})
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return v, nil
	}
	base := len(p.items)
	defer func() { p.items = p.items[:base] }()
	for {
		p.skipSpace()
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, item)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of JSON input")
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] == ']' {
			p.pos++
			p.depth--
			v.Items = p.valSlice(p.items[base:])
			return v, nil
		}
		return nil, p.fail("expected ',' or ']' in array")
	}
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
	d := p.data
	// Fast path: no escapes, ASCII or valid UTF-8.
	for p.pos < len(d) {
		c := d[p.pos]
		if c == '"' {
			s := p.src[start:p.pos]
			if !utf8.ValidString(s) {
				return "", &SyntaxError{Offset: start, Msg: "invalid UTF-8 in string"}
			}
			p.pos++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.fail("control character in string")
		}
		p.pos++
	}
	buf := make([]byte, 0, p.pos-start+16)
	buf = append(buf, d[start:p.pos]...)
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return "", &SyntaxError{Offset: start, Msg: "invalid UTF-8 in string"}
			}
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		p.pos++ // backslash
		if p.pos >= len(d) {
			break
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
			r, ok := p.hex4()
			if !ok {
				return "", p.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					var ok2 bool
					r2, ok2 = p.hex4()
					if !ok2 {
						return "", p.fail("invalid \\u escape")
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						p.pos = save // the second escape stands on its own
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError // lone surrogate
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.fail("invalid escape in string")
		}
	}
	return "", p.fail("unexpected end of JSON input in string")
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
