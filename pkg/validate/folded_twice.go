package validate

import (
	"slices"

	"kitsoki/pkg/diag"
)

// placeKey is which finding sits where: its file and position, rule,
// severity, the place it names as its own file names it (diag.Place) and
// the check that made it (diag.Diagnostic.Format), never its text.
type placeKey struct {
	file      string
	line, col int
	rule      string
	sev       diag.Severity
	place     diag.Place
	format    string
}

// dropFoldedTwice drops from each story's findings those in a file of
// another story of the run (its manifest or a file it includes) that the
// other story's own check reports too, at the same place, by the same
// check: a child checked on its own and inside its importer names the
// line twice, once as written and once as the fold names it (pkg/lint's
// folded places), and the child's own wording is kept. An error only the
// fold finds (a grouped meta_mode in a child) stays. per is not changed:
// which stories are invalid is decided on every finding.
func dropFoldedTwice(per []checked) []checked {
	own := map[placeKey]bool{}
	for _, c := range per {
		for _, d := range c.diags {
			if c.own[d.File] {
				own[keyOf(d)] = true
			}
		}
	}
	out := slices.Clone(per)
	for i, c := range per {
		out[i].diags = slices.DeleteFunc(slices.Clone(c.diags), func(d diag.Diagnostic) bool {
			return !c.own[d.File] && own[keyOf(d)]
		})
	}
	return out
}

func keyOf(d diag.Diagnostic) placeKey {
	return placeKey{d.File, d.Line, d.Col, d.Rule, d.Severity, d.Place, d.Format}
}
