package story

import "kitsoki/internal/yamlnode"

// walkRules are the rules the YAML walk of a story file reports under.
var walkRules = &yamlnode.Rules{Syntax: RuleYAMLSyntax, Type: RuleType, Duplicate: RuleDuplicateKey, Unknown: RuleUnknownKey, NumberText: RuleNumberText}

// fileParser turns the YAML nodes of one file into model values through a
// yamlnode.Walker.
type fileParser struct {
	*yamlnode.Reporter
	*yamlnode.Walker
	dir string // absolute directory of the file
	// owned: the tree is this parse's alone, so parsed states release nodes.
	owned bool
	// split, when set, is the file cut state by state (yamlsplit.go).
	split     *statesSplit
	splitData []byte
	batch     int // bytes of state text parsed at once
	// splitUsed: the block was read from the split; splitFailed: a chunk was
	// not safe (the whole file is parsed instead).
	splitUsed, splitFailed bool
	// include: the file is an include: file (parseFileDoc).
	include bool
	// strScratch is bodyPositions' reused scratch list.
	strScratch []strAt
}

// newFileParser reads file (size bytes, in directory dir) into rep.
func newFileParser(rep *yamlnode.Reporter, file, dir string, size int) *fileParser {
	w := yamlnode.NewWalker(file, size, &rep.Diags, walkRules)
	w.Typed = true // a story decodes as upstream's typed structs
	return &fileParser{Reporter: rep, Walker: w, dir: dir}
}
