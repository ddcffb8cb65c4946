package eval

import (
	"errors"
	"fmt"

	"kitsoki/pkg/diag"
)

// invalidReason is why eval list lists a dataset that loaded as invalid,
// for its WARN line (the row has no column for it): a file of another
// kind said for what it is, with where to keep it so that the list
// leaves it out (every evals/*.yaml is read as a dataset, as upstream
// reads it); else the first error and how many there are in all.
func invalidReason(v *Validation) error {
	d := v.Dataset
	if d.otherKind != "" {
		return fmt.Errorf("%s: listed invalid: %s; every evals/*.yaml is read as a dataset: keep it in a folder below evals/ (evals/cassettes/, say) to leave it out of the list", d.Path, otherKindMessage(d))
	}
	var first *Finding
	n := 0
	for i, f := range v.Findings {
		if f.Severity != diag.Error {
			continue
		}
		if n++; first == nil {
			first = &v.Findings[i]
		}
	}
	if first == nil {
		return errors.New(d.Path + ": listed invalid")
	}
	at := first.Pos.File
	if at == "" {
		at = d.Path
	}
	if first.Pos.Line > 0 {
		at += fmt.Sprintf(":%d:%d", first.Pos.Line, first.Pos.Col)
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (%d errors in all: kitsoki eval show %s lists them)", n, d.Path)
	}
	return fmt.Errorf("%s: listed invalid: %s%s", at, first.Message, more)
}
