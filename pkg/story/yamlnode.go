package story

import (
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// reporter collects diagnostics for one load.
type reporter struct {
	ds []diag.Diagnostic
}

func (r *reporter) add(p Pos, sev diag.Severity, rule *Rule, format string, a ...any) {
	yamlnode.Append(&r.ds, p, sev, rule, format, a...)
}

func (r *reporter) errf(p Pos, rule *Rule, format string, a ...any) {
	r.add(p, diag.Error, rule, format, a...)
}

func (r *reporter) warnf(p Pos, rule *Rule, format string, a ...any) {
	r.add(p, diag.Warning, rule, format, a...)
}

// demoteSince turns the errors reported since mark (a len(r.ds)) into
// warnings that carry note: problems in blocks upstream never checks.
func (r *reporter) demoteSince(mark int, note string) { diag.Demote(r.ds[mark:], note) }

// walkRules are the rules the YAML walk of a story file reports under.
var walkRules = &yamlnode.Rules{Syntax: RuleYAMLSyntax, Type: RuleType, Duplicate: RuleDuplicateKey, Unknown: RuleUnknownKey, NumberText: RuleNumberText}

// fileParser turns the YAML nodes of one file into model values, walking
// them through a yamlnode.Walker (node budget, recursive aliases, type
// errors, duplicate and unknown keys).
type fileParser struct {
	*reporter
	*yamlnode.Walker
	dir string // absolute directory of the file
	// owned: the tree belongs to this parse alone (a file's own parse,
	// not an import's override nodes parsed on demand), so a top-level
	// state's nodes are released once the state is parsed (parseStates).
	owned bool
	// split, when set, is the file cut state by state (yamlsplit.go):
	// parseDoc reads the states: block from splitData chunk by chunk.
	split     *statesSplit
	splitData []byte
	batch     int // bytes of state text parsed at once
	// splitUsed and splitFailed report that the block was read from the
	// split, and that a chunk was not safe to (the whole file is parsed
	// instead).
	splitUsed, splitFailed bool
	// include: the file is an include: file (parseFileDoc).
	include bool
	// strScratch is bodyPositions' reused scratch list.
	strScratch []strAt
}

// newFileParser reads file (as diagnostics name it, size bytes, in the
// absolute directory dir), reporting into rep.
func newFileParser(rep *reporter, file, dir string, size int) *fileParser {
	return &fileParser{reporter: rep, Walker: yamlnode.NewWalker(file, size, &rep.ds, walkRules), dir: dir}
}
