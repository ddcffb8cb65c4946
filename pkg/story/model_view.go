package story

import (
	"slices"
	"strings"
)

// View is a state or transition view in one of its four forms.
type View struct {
	// Kind is "template", "elements", "extends" or "template_file".
	Kind         string
	Template     string
	Elements     []*ViewElement
	Extends      string
	Blocks       map[string][]*ViewElement
	BlockOrder   []string
	TemplateFile string
	Pos          Pos
	// HexEscapes are the \x, \u and \U escapes of its double-quoted
	// scalars, which upstream reads differently (hex_escapes.go).
	HexEscapes []HexEscape
}

// ViewElement is one typed view element (prose, heading, code, template,
// list, kv, banner, choice or media): Text holds string bodies, Body the
// raw body of structured kinds.
type ViewElement struct {
	Kind string
	When string
	Text string
	Body any
	Pos  Pos
	// WhenPos and TextPos are the positions of the when: and text values.
	WhenPos Pos
	TextPos Pos
	// PairKeys lists a kv element's pairs: keys in the order upstream prints
	// them (merged keys in place, each once).
	PairKeys []string
	// strPos holds the position of each scalar of Body (StringPos): in document
	// order up to smallStrPos, else sorted by string, first position each.
	strPos []strAt
}

// strAt is the position of a string of an element's body.
type strAt struct {
	s         string
	line, col int32
}

// StringPos returns the position of the first body scalar holding s, or zero.
func (el *ViewElement) StringPos(s string) Pos {
	var i int
	var ok bool
	if len(el.strPos) <= smallStrPos {
		// The first match is the first position, sorted or not.
		i = slices.IndexFunc(el.strPos, func(a strAt) bool { return a.s == s })
		ok = i >= 0
	} else {
		i, ok = slices.BinarySearchFunc(el.strPos, s, func(a strAt, s string) int { return strings.Compare(a.s, s) })
	}
	if !ok {
		return Pos{}
	}
	return Pos{File: el.Pos.File, Line: int(el.strPos[i].line), Col: int(el.strPos[i].col)}
}

// smallStrPos is the count up to which body strings are kept in order.
const smallStrPos = 8
