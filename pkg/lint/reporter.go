package lint

import (
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// reporter collects the diagnostics of one Check.
type reporter struct {
	ds []diag.Diagnostic
}

func (r *reporter) add(p story.Pos, sev diag.Severity, rule *Rule, format string, a ...any) {
	yamlnode.Append(&r.ds, p, sev, rule, format, a...)
}

func (r *reporter) errf(p story.Pos, rule *Rule, format string, a ...any) {
	r.add(p, diag.Error, rule, format, a...)
}

func (r *reporter) warnf(p story.Pos, rule *Rule, format string, a ...any) {
	r.add(p, diag.Warning, rule, format, a...)
}

// demoteSince turns the errors reported since mark (a len(r.ds)) into
// warnings that carry note: problems in blocks upstream never checks.
func (r *reporter) demoteSince(mark int, note string) { diag.Demote(r.ds[mark:], note) }

// didYouMean is the suggestion a message ends with: "; did you mean `x`?"
// for the name of known closest to name, or "".
func didYouMean(name string, known []string) string {
	if s := yamlnode.Suggest(name, known); s != "" {
		return "; did you mean `" + s + "`?"
	}
	return ""
}
