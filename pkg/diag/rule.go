package diag

// Rule is one check kitsoki validate reports: its stable id (the one every
// diagnostic of the check carries in Diagnostic.Rule and `#
// kitsoki:ignore` names), its usual severity, a one-line summary, a
// minimal example that triggers it, and whether a story with the finding
// still runs.
//
// Each package that reports diagnostics declares its rules as *Rule
// values and sets Diagnostic.Rule from them (rule.ID), never from a string
// literal; it lists them in a Rules function, and pkg/validate joins those
// lists into the one --list-rules, SARIF and docs/checks.md show.
type Rule struct {
	ID       string
	Severity Severity
	Summary  string
	// Example is a fragment (one line or a few) that triggers the rule.
	Example string
	// LintOnly marks a rule whose findings do not stop a story from
	// running: upstream's loader accepts the story (it fails, if at all,
	// only at run or render time), so run, test and eval print such errors
	// as warnings and go ahead; validate still reports them as errors.
	LintOnly bool
}

// Values returns copies of rules in their order: what a package's Rules
// function hands out, so no caller can change a registered rule.
func Values(rules []*Rule) []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		out[i] = *r
	}
	return out
}
