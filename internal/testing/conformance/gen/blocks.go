package main

import (
	"math/rand/v2"
	"strings"

	"go.yaml.in/yaml/v3"
)

// block is a string written as a YAML block scalar: literal (|) or
// folded (>). yaml.v3 picks the chomping indicator from the text's
// trailing line breaks (none: -, one: clip, more: +), and falls back to
// a quoted scalar where a block cannot hold the text. A folded block of
// text ending in more than one break is written literal: yaml.v3 writes
// `>+` with one break too many.
type block struct {
	text   string
	folded bool
}

// MarshalYAML writes the text in its block style, or double-quoted where
// blockable says a block of it would not read back (yaml.v3 would write a
// multi-line string as a literal block all the same).
func (b block) MarshalYAML() (any, error) {
	if !blockable(b.text) {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: b.text, Style: yaml.DoubleQuotedStyle}, nil
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: b.text, Style: yaml.LiteralStyle}
	if b.folded && !strings.HasSuffix(b.text, "\n\n") {
		n.Style = yaml.FoldedStyle
	}
	return n, nil
}

// blockGen rewrites a written story's strings as the block scalars real
// stories write (-blocks): `view: |`, `prose: >`, `code: |`, `when: |`
// guards over several lines, host stdout, say:, targets and set:/with:
// values, with every chomping, so a trailing or inner line break reaches
// guards, templates, target resolution and typed world keys. It draws
// from its own source after the story is built, so a seed writes the
// same story otherwise.
type blockGen struct{ rnd *rand.Rand }

func newBlockGen(seed uint64) *blockGen {
	return &blockGen{rnd: rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, seed+0x61c8864680b583eb))}
}

// exprKeys hold expr-lang guards, split over lines at their operators.
var exprKeys = map[string]bool{"when": true, "guard": true}

// textKeys hold text or templates real stories write as blocks.
var textKeys = map[string]bool{
	"view": true, "prose": true, "code": true, "template": true, "heading": true, "say": true,
	"text": true, "guard_hint": true, "stdout": true, "stderr": true, "banner": true, "message": true,
}

// valueKeys hold one value read after rendering: a block adds a line
// break to a templated one, to learn what the engines trim (a literal
// one with a break is refused at load by both).
var valueKeys = map[string]bool{"target": true, "emit_intent": true, "initial": true}

// valueMaps are mappings whose string values are template values
// (world keys set, host call arguments).
var valueMaps = map[string]bool{"set": true, "with": true, "args": true}

// nameArgs are the values of those mappings that name a declaration
// (with.agent): both engines refuse a block with a line break there at
// load ("is not declared in agents"), which the first few stories
// learned; drawn as blocks, they stopped most of a -blocks batch before
// it ran a turn.
var nameArgs = map[string]bool{"agent": true}

// apply rewrites v's strings in place, walking mappings in key order.
func (b *blockGen) apply(v any) {
	switch x := v.(type) {
	case m:
		for _, k := range sortedKeys(x) {
			switch s, ok := x[k].(string); {
			case ok && exprKeys[k] && b.chance(60):
				x[k] = b.expr(s)
			case ok && textKeys[k] && b.chance(60):
				x[k] = b.text(s)
			case ok && valueKeys[k] && strings.Contains(s, "{{") && b.chance(40):
				x[k] = block{text: s + b.pick("\n", "", "\n\n"), folded: b.chance(50)}
			case !ok && valueMaps[k]:
				if vm, isMap := x[k].(m); isMap {
					for _, vk := range sortedKeys(vm) {
						if vs, isStr := vm[vk].(string); isStr && !nameArgs[vk] && b.chance(40) {
							vm[vk] = b.text(vs)
						}
					}
				}
				b.apply(x[k])
			default:
				b.apply(x[k])
			}
		}
	case []any:
		for _, e := range x {
			b.apply(e)
		}
	case []m:
		for _, e := range x {
			b.apply(e)
		}
	}
}

// expr splits a guard after its boolean operators and ends it with a
// drawn chomping.
func (b *blockGen) expr(s string) block {
	for _, op := range []string{" && ", " || ", " and ", " or "} {
		if b.chance(70) {
			s = strings.ReplaceAll(s, op, op[:len(op)-1]+"\n")
		}
	}
	return block{text: s + b.pick("\n", "", "\n\n"), folded: b.chance(40)}
}

// text draws one of the ways a block changes a text: none (style only),
// a trailing break, kept breaks, a break inside, a break for every blank.
// (No leading blank line: yaml.v3 writes its indentation indicator
// relative to the wrong column inside a sequence, which it cannot read.)
func (b *blockGen) text(s string) block {
	switch b.rnd.IntN(5) {
	case 1:
		s += "\n"
	case 2:
		s += "\n\n"
	case 3:
		if i := strings.Index(s, " "); i > 0 {
			s = s[:i] + "\n" + s[i+1:]
		}
		s += b.pick("\n", "")
	case 4:
		s = strings.ReplaceAll(s, " ", "\n") + "\n"
	}
	return block{text: s, folded: b.chance(50)}
}

// blockable reports whether yaml.v3 writes text as a block it reads back
// in any nesting: not blank, no tab or carriage return, no line that
// starts or ends with a blank (a leading blank or break makes it write an
// indentation indicator it then cannot read inside a sequence).
func blockable(text string) bool {
	if strings.TrimSpace(text) == "" || strings.ContainsAny(text, "\t\r") || strings.HasPrefix(text, "\n") {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != l {
			return false
		}
	}
	return true
}

func (b *blockGen) chance(pct int) bool      { return b.rnd.IntN(100) < pct }
func (b *blockGen) pick(xs ...string) string { return xs[b.rnd.IntN(len(xs))] }
