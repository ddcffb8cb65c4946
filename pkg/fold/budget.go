package fold

import "kitsoki/pkg/story"

// spend charges one import of ci (named sub) and its child's states to the
// fold's budget; past a limit it reports once and returns false.
func (fs *folder) spend(sub string, ci *story.Import) bool {
	if fs.overBudget {
		return false
	}
	if fs.stateCount == nil {
		fs.stateCount = map[*story.Story]int{}
	}
	n, ok := fs.stateCount[ci.Child]
	if !ok {
		n = len(story.Flatten(ci.Child.States))
		fs.stateCount[ci.Child] = n
	}
	fs.imports++
	fs.copied += n
	switch {
	case fs.imports > story.MaxFoldImports:
		fs.errf(sub, ci.Pos, "%s", story.FoldImportsMessage(ci.Source))
	case fs.copied > fs.opts.ImportedStatesLimit():
		fs.errf(sub, ci.Pos, "%s", story.FoldStatesMessageOver(ci.Source, fs.opts.ImportedStatesLimit()))
	default:
		return true
	}
	fs.overBudget = true
	return false
}
