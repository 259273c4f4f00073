package cgt

import (
	"slices"
	"strconv"
	"strings"
)

// maxSlashes is the most slashes the printer writes before it falls back
// to braces, as in CGSuite.
const maxSlashes = 4

// String writes g in CGSuite's plain-text notation (see the package
// documentation).
func (t *Table) String(g ID) string {
	var b strings.Builder
	t.write(&b, g, true, false)
	return b.String()
}

// write appends g to b and returns the number of slashes its top level used
// (0 when it is atomic or bracketed), as CGSuite's appendTo does.
func (t *Table) write(b *strings.Builder, g ID, forceBrackets, forceParens bool) int {
	n := &t.nodes[g]
	if n.isNus {
		t.writeNUS(b, n, forceParens)
		return 0
	}
	lo, ro := t.sortedOptions(n.left), t.sortedOptions(n.right)
	if t.Neg(g) == g {
		b.WriteString("+-")
		if len(lo) > 1 {
			b.WriteString("{")
		}
		for i, gl := range lo {
			if i > 0 {
				b.WriteString(",")
			}
			t.write(b, gl, true, len(lo) == 1)
		}
		if len(lo) > 1 {
			b.WriteString("}")
		}
		return 0
	}
	if name, translate, sub, ok := t.tiny(n); ok {
		if forceParens {
			b.WriteString("(")
		}
		if translate != Zero {
			t.write(b, translate, false, false)
		}
		b.WriteString(name + "(")
		t.write(b, sub, true, false)
		b.WriteString(")")
		if forceParens {
			b.WriteString(")")
		}
		return 0
	}
	var lb, rb strings.Builder
	slashes := 0
	for _, side := range []struct {
		opts []ID
		out  *strings.Builder
	}{{lo, &lb}, {ro, &rb}} {
		for i, o := range side.opts {
			if i > 0 {
				side.out.WriteString(",")
			}
			slashes = max(slashes, t.write(side.out, o, len(side.opts) > 1, false)+1)
		}
	}
	slashes = max(slashes, 1)
	brackets := forceBrackets || slashes == maxSlashes
	if brackets {
		b.WriteString("{")
	}
	b.WriteString(lb.String())
	b.WriteString(strings.Repeat("|", slashes))
	b.WriteString(rb.String())
	if brackets {
		b.WriteString("}")
		return 0
	}
	return slashes
}

// writeNUS writes x + n.↑ + *m as CGSuite writes an uptimal of length at
// most 1: the number unless it is 0, then ^, ^^, ^n or v, vv, vn, then *
// or *m.
func (t *Table) writeNUS(b *strings.Builder, n *node, forceParens bool) {
	compact := n.isNum || n.ups == 0 && n.num.Num == 0 || n.num.Num == 0 && n.nim == 0
	if forceParens && !compact {
		b.WriteString("(")
	}
	if n.num.Num != 0 || n.nim == 0 && n.ups == 0 {
		b.WriteString(n.num.String())
	}
	if u := n.ups; u != 0 {
		sym := "^"
		if u < 0 {
			sym, u = "v", -u
		}
		switch u {
		case 1:
			b.WriteString(sym)
		case 2:
			b.WriteString(sym + sym)
		default:
			b.WriteString(sym + strconv.Itoa(int(u)))
		}
	}
	if n.nim > 0 {
		b.WriteString("*")
		if n.nim > 1 {
			b.WriteString(strconv.Itoa(int(n.nim)))
		}
	}
	if forceParens && !compact {
		b.WriteString(")")
	}
}

// tiny recognises x + Tiny(G) = {x || x | x - G} and x + Miny(G) =
// {x + G | x || x}, as CGSuite's isNumberTiny does (the far option's mean
// beyond x), and returns the printed name, x and G.
func (t *Table) tiny(n *node) (name string, translate, sub ID, ok bool) {
	if len(n.left) != 1 || len(n.right) != 1 {
		return "", 0, 0, false
	}
	gl, gr := n.left[0], n.right[0]
	if x, isNum := t.IsNumber(gl); isNum {
		r := &t.nodes[gr]
		if len(r.left) == 1 && len(r.right) == 1 && r.left[0] == gl {
			if m, _ := t.MeanTemp(r.right[0]); m.Cmp(x) < 0 {
				return "Tiny", gl, t.Sub(gl, r.right[0]), true
			}
		}
	}
	if x, isNum := t.IsNumber(gr); isNum {
		l := &t.nodes[gl]
		if len(l.left) == 1 && len(l.right) == 1 && l.right[0] == gr {
			if m, _ := t.MeanTemp(l.left[0]); m.Cmp(x) > 0 {
				return "Miny", gr, t.Sub(l.left[0], gr), true
			}
		}
	}
	return "", 0, 0, false
}

// sortedOptions orders options as CGSuite's DeterministicOrdering does:
// numbers by value, then nimbers, then other number-up-stars, then the rest
// by their sorted option lists.
func (t *Table) sortedOptions(opts []ID) []ID {
	s := slices.Clone(opts)
	slices.SortFunc(s, t.compareDet)
	return s
}

func (t *Table) compareDet(g, h ID) int {
	if g == h {
		return 0
	}
	gn, hn := &t.nodes[g], &t.nodes[h]
	rank := func(n *node) int {
		switch {
		case n.isNum:
			return 0
		case n.isNus && n.num.Num == 0 && n.ups == 0:
			return 1
		case n.isNus:
			return 2
		}
		return 3
	}
	if rg, rh := rank(gn), rank(hn); rg != rh {
		return rg - rh
	}
	switch rank(gn) {
	case 0:
		return gn.num.Cmp(hn.num)
	case 1:
		return int(gn.nim - hn.nim)
	case 2:
		if c := gn.num.Cmp(hn.num); c != 0 {
			return c
		}
		if gn.ups != hn.ups {
			return int(gn.ups - hn.ups)
		}
		return int(gn.nim - hn.nim)
	}
	if c := t.compareLists(t.sortedOptions(gn.left), t.sortedOptions(hn.left)); c != 0 {
		return c
	}
	return t.compareLists(t.sortedOptions(gn.right), t.sortedOptions(hn.right))
}

func (t *Table) compareLists(a, b []ID) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := t.compareDet(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}
