package validate

import (
	"errors"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// foldRepeats is the fold's error for an import tree that repeats more
// than maxRepeats (0: fold.MaxRepeats), which run and test refuse and no
// lint rule can tell (pkg/lint does not fold): st is folded as a run folds
// it (phases expanded) only when fold.RepeatsAtMost says it may cross the
// limit, so a story far under it costs no fold.
func foldRepeats(st *story.Story, maxRepeats int) []diag.Diagnostic {
	opts := foldOptions(maxRepeats)
	if len(st.ImportOrder) == 0 || fold.RepeatsAtMost(st, opts.RepeatLimit()) <= opts.RepeatLimit() {
		return nil
	}
	_, err := fold.New(st, opts)
	var fe *fold.Error
	if !errors.As(err, &fe) {
		return nil
	}
	rep := &yamlnode.Reporter{}
	for _, p := range fe.Problems {
		if p.OverRepeats {
			rep.Errf(p.Pos, story.RuleImports, "imports.%s: %s", p.Alias, p.Message)
		}
	}
	return rep.Diags
}

// foldOptions are the options validate folds a story with: a run's
// (phases expanded) with Options.MaxRepeats as the fold's limit.
func foldOptions(maxRepeats int) fold.Options {
	return fold.Options{Phases: phases.Expand, MaxRepeats: maxRepeats}
}
