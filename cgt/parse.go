package cgt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Errors of Parse. ErrTooLarge wraps ErrSyntax.
var (
	ErrSyntax   = errors.New("bad game")
	ErrTooLarge = fmt.Errorf("%w: too large", ErrSyntax)
)

// maxParsed bounds the integers, denominators, up multiples and nimbers
// Parse accepts: the canonical form of the integer n has n followers, and
// so on, so a larger one would be a way to exhaust memory.
const maxParsed = 1 << 12

// Parse reads a game written in the notation String writes: numbers (3,
// -1/2), nimbers (*, *3), ups (^, ^^, ^3, v, vv, v3) with a number before
// and a star after (1/2v*), switches (+-1, +-{2|1}), Tiny(G) and Miny(G)
// with a number before, and general forms {a,b|c} with nested slashes
// ({2||1|0}), and sums of those joined by '+' (9/8+*). It returns the
// canonical form of the game read.
func (t *Table) Parse(s string) (ID, error) {
	s = strings.ReplaceAll(s, " ", "")
	g, rest, err := t.parseGame(s)
	for err == nil && strings.HasPrefix(rest, "+") {
		var h ID
		h, rest, err = t.parseGame(rest[1:])
		g = t.Add(g, h)
	}
	if err == nil && rest != "" {
		err = fmt.Errorf("%w %q: unexpected %q", ErrSyntax, s, rest)
	}
	if err != nil {
		return 0, err
	}
	return g, nil
}

// MustParse is Parse that panics on a syntax error; for tests and
// examples.
func (t *Table) MustParse(s string) ID {
	g, err := t.Parse(s)
	if err != nil {
		panic(err)
	}
	return g
}

func (t *Table) parseGame(s string) (ID, string, error) {
	switch {
	case strings.HasPrefix(s, "+-"):
		// +-{a,b} is {a,b | -a,-b}; +-G is {G | -G}.
		var opts []ID
		rest := ""
		if end := closing(s[2:], '{', '}'); strings.HasPrefix(s[2:], "{") && end > 0 && !hasTopSlash(s[3:2+end]) {
			var err error
			if opts, err = t.parseList(s[3 : 2+end]); err != nil {
				return 0, "", err
			}
			rest = s[3+end:]
		} else {
			g, r, err := t.parseGame(s[2:])
			if err != nil {
				return 0, "", err
			}
			opts, rest = []ID{g}, r
		}
		neg := make([]ID, len(opts))
		for i, o := range opts {
			neg[i] = t.Neg(o)
		}
		return t.New(opts, neg), rest, nil
	case strings.HasPrefix(s, "{"):
		end := closing(s, '{', '}')
		if end < 0 {
			return 0, "", fmt.Errorf("%w %q: unbalanced braces", ErrSyntax, s)
		}
		g, err := t.parseContent(s[1:end])
		return g, s[end+1:], err
	case strings.HasPrefix(s, "("):
		end := closing(s, '(', ')')
		if end < 0 {
			return 0, "", fmt.Errorf("%w %q: unbalanced parentheses", ErrSyntax, s)
		}
		g, err := t.Parse(s[1:end])
		return g, s[end+1:], err
	}
	return t.parseNUS(s)
}

// closing returns the index of the bracket that closes s[0], or -1.
func closing(s string, open, close byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// parseContent reads L|R, splitting at the longest run of slashes outside
// brackets.
func (t *Table) parseContent(s string) (ID, error) {
	best, at, depth := 0, -1, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '(':
			depth++
		case '}', ')':
			depth--
		case '|':
			if depth == 0 && (i == 0 || s[i-1] != '|') {
				n := 1
				for i+n < len(s) && s[i+n] == '|' {
					n++
				}
				if n > best {
					best, at = n, i
				}
			}
		}
	}
	if at < 0 {
		return 0, fmt.Errorf("%w %q: no '|'", ErrSyntax, s)
	}
	left, err := t.parseList(s[:at])
	if err != nil {
		return 0, err
	}
	right, err := t.parseList(s[at+best:])
	if err != nil {
		return 0, err
	}
	return t.New(left, right), nil
}

// parseList reads the options of one side. A side with a slash outside
// brackets is one game written without its braces: CGSuite braces every
// option of a side with several (and an atom needs none), so a lone option
// may hold commas of its own ({0||0,v*|vv}). Otherwise the options are
// separated by commas outside brackets.
func (t *Table) parseList(s string) ([]ID, error) {
	if hasTopSlash(s) {
		g, err := t.parseContent(s)
		if err != nil {
			return nil, err
		}
		return []ID{g}, nil
	}
	var out []ID
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			switch s[i] {
			case '{', '(':
				depth++
				continue
			case '}', ')':
				depth--
				continue
			}
			if s[i] != ',' || depth != 0 {
				continue
			}
		}
		item := s[start:i]
		start = i + 1
		if item == "" {
			if i == len(s) && len(out) == 0 {
				break
			}
			return nil, fmt.Errorf("%w %q: empty option", ErrSyntax, s)
		}
		g, err := t.Parse(item)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

func hasTopSlash(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '(':
			depth++
		case '}', ')':
			depth--
		case '|':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// parseNUS reads [number][ups][star] or [number]Tiny(G) / Miny(G).
func (t *Table) parseNUS(s string) (ID, string, error) {
	orig := s
	x, s, hasNum, err := parseNumber(s)
	if err != nil {
		return 0, "", err
	}
	for _, name := range []string{"Tiny(", "Miny("} {
		if strings.HasPrefix(s, name) {
			end := closing(s[4:], '(', ')')
			if end < 0 {
				return 0, "", fmt.Errorf("%w %q: unbalanced parentheses", ErrSyntax, orig)
			}
			sub, err := t.Parse(s[5 : 4+end])
			if err != nil {
				return 0, "", err
			}
			xi := t.Number(x)
			var g ID
			if name == "Tiny(" {
				g = t.New([]ID{xi}, []ID{t.New([]ID{xi}, []ID{t.Sub(xi, sub)})})
			} else {
				g = t.New([]ID{t.New([]ID{t.Add(xi, sub)}, []ID{xi})}, []ID{xi})
			}
			return g, s[5+end:], nil
		}
	}
	ups := 0
	if s != "" && (s[0] == '^' || s[0] == 'v') {
		c, sign := s[0], 1
		if c == 'v' {
			sign = -1
		}
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		s = s[n:]
		digits := leadingDigits(s)
		if digits != "" {
			if n != 1 {
				return 0, "", fmt.Errorf("%w %q: count after a repeated arrow", ErrSyntax, orig)
			}
			var err error
			if n, err = strconv.Atoi(digits); err != nil || n > maxParsed {
				return 0, "", fmt.Errorf("%w %q: up multiple %s over %d", ErrTooLarge, orig, digits, maxParsed)
			}
			s = s[len(digits):]
		}
		if n > maxParsed {
			return 0, "", fmt.Errorf("%w %q: up multiple over %d", ErrTooLarge, orig, maxParsed)
		}
		ups = sign * n
	}
	nim := 0
	hasStar := strings.HasPrefix(s, "*")
	if hasStar {
		s = s[1:]
		nim = 1
		if digits := leadingDigits(s); digits != "" {
			var err error
			if nim, err = strconv.Atoi(digits); err != nil || nim > maxParsed {
				return 0, "", fmt.Errorf("%w %q: nimber *%s over *%d", ErrTooLarge, orig, digits, maxParsed)
			}
			s = s[len(digits):]
		}
	}
	if !hasNum && ups == 0 && !hasStar {
		return 0, "", fmt.Errorf("%w %q: want a game", ErrSyntax, orig)
	}
	return t.NUS(x, ups, nim), s, nil
}

func leadingDigits(s string) string {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
}

// parseNumber reads [-]n or [-]n/2^k.
func parseNumber(s string) (Dyadic, string, bool, error) {
	neg := strings.HasPrefix(s, "-")
	rest := s
	if neg {
		rest = s[1:]
	}
	digits := leadingDigits(rest)
	if digits == "" {
		if neg {
			return Dyadic{}, "", false, fmt.Errorf("%w %q: '-' without a number", ErrSyntax, s)
		}
		return Dyadic{}, s, false, nil
	}
	num, err := strconv.ParseInt(digits, 10, 62)
	if err != nil {
		return Dyadic{}, "", false, fmt.Errorf("%w %q: number %s over %d", ErrTooLarge, s, digits, maxParsed)
	}
	rest = rest[len(digits):]
	exp := uint(0)
	if strings.HasPrefix(rest, "/") {
		d := leadingDigits(rest[1:])
		den, err := strconv.ParseUint(d, 10, 62)
		if err != nil || den == 0 || den&(den-1) != 0 {
			return Dyadic{}, "", false, fmt.Errorf("%w %q: denominator %q is not a power of 2", ErrSyntax, s, d)
		}
		if den > maxParsed {
			return Dyadic{}, "", false, fmt.Errorf("%w %q: denominator %s over %d", ErrTooLarge, s, d, maxParsed)
		}
		for den > 1 {
			den >>= 1
			exp++
		}
		rest = rest[1+len(d):]
	}
	if num>>exp > maxParsed {
		return Dyadic{}, "", false, fmt.Errorf("%w %q: number over %d", ErrTooLarge, s, maxParsed)
	}
	if neg {
		num = -num
	}
	return MakeDyadic(num, exp), rest, true, nil
}
