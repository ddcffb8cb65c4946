package story

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// walkRules are the rules the YAML walk of a story file reports under.
var walkRules = &yamlnode.Rules{Syntax: RuleYAMLSyntax, Type: RuleType, Duplicate: RuleDuplicateKey, Unknown: RuleUnknownKey, NumberText: RuleNumberText}

// fileParser turns the YAML nodes of one file into model values through a
// yamlnode.Walker.
type fileParser struct {
	*yamlnode.Reporter
	*yamlnode.Walker
	// at is the place (diag.Place) of the view or intent being parsed,
	// which its structure errors start with: kept as data on them, so
	// pkg/lint names it as the fold does without reading the message.
	at  diag.Place
	dir string // absolute directory of the file
	// owned: the tree is this parse's alone, so parsed states release nodes.
	owned bool
	// split, when set, is the file cut state by state (yamlsplit.go).
	split     *statesSplit
	splitData []byte
	batch     int // bytes of state text parsed at once
	maxNodes  int // the node limit of each batch's tree (decodeYAML)
	// splitUsed: the block was read from the split; splitFailed: a chunk was
	// not safe (the whole file is parsed instead).
	splitUsed, splitFailed bool
	// include: the file is an include: file (parseFileDoc).
	include bool
	// strScratch is bodyPositions' reused scratch list.
	strScratch []strAt
	// src is the file's text (nil when not kept), which hexEscapes reads;
	// srcHasHex caches whether it holds one anywhere (0 unknown, 1 yes,
	// -1 no) and lines its line starts (hex_escapes.go).
	src       []byte
	srcHasHex int8
	lines     []int
}

// newFileParser reads file (size bytes, in directory dir) into rep.
func newFileParser(rep *yamlnode.Reporter, file, dir string, size int) *fileParser {
	w := yamlnode.NewWalker(file, size, &rep.Diags, walkRules)
	w.Typed = true // a story decodes as upstream's typed structs
	return &fileParser{Reporter: rep, Walker: w, dir: dir}
}

// checkShape reports v under rule unless it is null or a node of kind
// (with one of tags, when any are given), as upstream's typed decode
// refuses it: "<where>: expected <want>, got <what v is>". It says whether
// v passed.
func (p *fileParser) checkShape(v *yaml.Node, rule *diag.Rule, where, want string, kind yaml.Kind, tags ...string) bool {
	d := yamlnode.Deref(v)
	if d == nil || yamlnode.IsNull(d) || d.Kind == kind && (len(tags) == 0 || slices.Contains(tags, d.Tag)) {
		return true
	}
	p.Errf(p.Pos(v), rule, "%s: expected %s, got %s", where, want, yamlnode.Describe(d))
	return false
}

// within makes at the place of what is parsed until the returned func
// restores the one before.
func (p *fileParser) within(at diag.Place) func() {
	before := p.at
	p.at = at
	return func() { p.at = before }
}
