package diag

// Rule is one check kitsoki validate reports, with its stable id. Each
// package declares its rules as *Rule values, sets Diagnostic.Rule from
// them, never from a string literal, and lists them in a Rules function
// that pkg/validate joins.
type Rule struct {
	ID       string
	Severity Severity
	Summary  string
	Example  string // a fragment that triggers the rule
	// LintOnly marks a rule whose findings upstream's loader accepts: run,
	// test and eval print such errors as warnings and go ahead.
	LintOnly bool
}

// Values returns copies of rules, so no caller can change a registered one.
func Values(rules []*Rule) []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		out[i] = *r
	}
	return out
}
