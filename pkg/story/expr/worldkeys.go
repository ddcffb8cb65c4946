package expr

import (
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// World keys read by name (world.K, world?.K, world["K"]; world[x] names
// none), for lint: expr-lang from the program's tree, pongo2 from its tags.

// WorldKeys returns the world keys the program reads by name, once each.
func (p *Program) WorldKeys() []string { return worldKeys(nil, p) }

// WorldKeys returns the world keys the template reads by name, once each.
func (t *Template) WorldKeys() []string { return worldKeys(nil, t.progs...) }

// worldKeys appends to out the world keys progs read that it lacks.
func worldKeys(out []string, progs ...*Program) []string {
	walkProgs(progs, func(n ast.Node) {
		m, ok := n.(*ast.MemberNode)
		if !ok {
			return
		}
		id, ok := unchain(m.Node).(*ast.IdentifierNode)
		if !ok || id.Value != "world" {
			return
		}
		if s, ok := m.Property.(*ast.StringNode); ok {
			out = addOnce(out, s.Value)
		}
	})
	return out
}

// MemberReads returns the keys the program reads of root by name
// (root.K, root?.K, root["K"]), once each, in order, from its own parse;
// plain is false when it uses root any other way too (root[x],
// len(root), root itself, $env).
func (p *Program) MemberReads(root string) (keys []string, plain bool) {
	uses, named := 0, 0
	walkProgs([]*Program{p}, func(n ast.Node) {
		switch t := n.(type) {
		case *ast.IdentifierNode:
			if t.Value == root {
				uses++
			}
		case *ast.MemberNode:
			id, ok := unchain(t.Node).(*ast.IdentifierNode)
			if !ok || id.Value != root {
				return
			}
			if s, ok := t.Property.(*ast.StringNode); ok {
				named++
				keys = addOnce(keys, s.Value)
			}
		}
	})
	return keys, uses == named && !p.allRoots
}

// Roots returns the roots the template's expressions name, each once, and
// whether one reads $env as a whole (Program.Roots).
func (t *Template) Roots() (roots []string, all bool) {
	for _, p := range t.progs {
		need, a := p.Roots()
		all = all || a
		for _, r := range need {
			roots = addOnce(roots, r)
		}
	}
	return roots, all
}

// MemberReads is Program.MemberReads over every expression of the
// template: plain is false when one uses root other than by name.
func (t *Template) MemberReads(root string) (keys []string, plain bool) {
	plain = true
	for _, p := range t.progs {
		ks, ok := p.MemberReads(root)
		plain = plain && ok
		for _, k := range ks {
			keys = addOnce(keys, k)
		}
	}
	return keys, plain
}

// walkProgs calls f with every node of the trees of progs (nil ones skipped).
func walkProgs(progs []*Program, f func(ast.Node)) {
	for _, p := range progs {
		if p != nil {
			node := p.prog.Node()
			ast.Walk(&node, visitFunc(func(n *ast.Node) { f(*n) }))
		}
	}
}

func addOnce(out []string, k string) []string {
	if slices.Contains(out, k) {
		return out
	}
	return append(out, k)
}

// PongoWorldKeys returns the world keys a compiled pongo2 template reads by
// name, once each, in order; ok is false when it may bind world itself.
func PongoWorldKeys(src string) (keys []string, ok bool) {
	for i := 0; ; {
		at, n, closer := nextPongoTag(src, i)
		if at < 0 {
			return keys, true
		}
		rest, block := src[at:], closer == "%}"
		inner := strings.TrimSuffix(rest[2:n], closer)
		if block && isCommentTag(inner) {
			k := endAfter(rest, "endcomment")
			n = k + endAfter(rest[k:], "%}")
		} else if keys, ok = tagWorldKeys(keys, inner, block); !ok {
			return nil, false
		}
		i = at + n
	}
}

// isCommentTag: the block tag's inner text is `comment`.
func isCommentTag(inner string) bool {
	return strings.TrimSpace(strings.Trim(inner, "-")) == "comment"
}

// tagWorldKeys appends the world.K reads of one tag's inner text; ok is
// false when a block tag names world other than as world.K.
func tagWorldKeys(keys []string, inner string, block bool) ([]string, bool) {
	var quote byte
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		}
		if c == '"' || c == '\'' {
			quote = c
			continue
		}
		if !strings.HasPrefix(inner[i:], "world") || i > 0 && (isIdentByte(inner[i-1]) || inner[i-1] == '.') {
			continue
		}
		end := i + len("world")
		if end < len(inner) && isIdentByte(inner[end]) {
			i = end
			continue
		}
		k := end + 1
		for k < len(inner) && isIdentByte(inner[k]) {
			k++
		}
		if end >= len(inner) || inner[end] != '.' || k == end+1 || isDigit(inner[end+1]) {
			if block {
				return nil, false
			}
			i = end
			continue
		}
		keys = addOnce(keys, inner[end+1:k])
		i = k - 1
	}
	return keys, true
}

func isIdentByte(c byte) bool { return isIdentStart(c) || isDigit(c) }
