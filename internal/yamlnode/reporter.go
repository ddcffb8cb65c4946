package yamlnode

import (
	"strings"

	"kitsoki/pkg/diag"
)

// Reporter collects the diagnostics of one story load or one lint check.
type Reporter struct {
	Diags []diag.Diagnostic
}

// Add reports a problem at p under rule with the given severity.
func (r *Reporter) Add(p Pos, sev diag.Severity, rule *diag.Rule, format string, a ...any) {
	appendDiag(&r.Diags, p, sev, rule, format, a...)
}

// Errf reports an error at p under rule.
func (r *Reporter) Errf(p Pos, rule *diag.Rule, format string, a ...any) {
	r.Add(p, diag.Error, rule, format, a...)
}

// Warnf reports a warning at p under rule.
func (r *Reporter) Warnf(p Pos, rule *diag.Rule, format string, a ...any) {
	r.Add(p, diag.Warning, rule, format, a...)
}

// AddAt is Add for a message that starts with the place at names: the
// finding carries at as data (diag.Diagnostic.Place). A message that does
// not start with it carries no place.
func (r *Reporter) AddAt(p Pos, at diag.Place, sev diag.Severity, rule *diag.Rule, format string, a ...any) {
	r.Add(p, sev, rule, format, a...)
	placeLast(r.Diags, at)
}

// placeLast gives the last of ds the place at when its message starts
// with it.
func placeLast(ds []diag.Diagnostic, at diag.Place) {
	if d := &ds[len(ds)-1]; !at.IsZero() && strings.HasPrefix(d.Message, at.String()) {
		d.Place = at
	}
}

// ErrAt is Errf for a message that starts with the place at names.
func (r *Reporter) ErrAt(p Pos, at diag.Place, rule *diag.Rule, format string, a ...any) {
	r.AddAt(p, at, diag.Error, rule, format, a...)
}

// WarnAt is Warnf for a message that starts with the place at names.
func (r *Reporter) WarnAt(p Pos, at diag.Place, rule *diag.Rule, format string, a ...any) {
	r.AddAt(p, at, diag.Warning, rule, format, a...)
}

// DemoteSince turns the errors reported since mark (a len(r.Diags)) into
// warnings that carry note: problems in blocks upstream never checks.
func (r *Reporter) DemoteSince(mark int, note string) { diag.Demote(r.Diags[mark:], note) }
