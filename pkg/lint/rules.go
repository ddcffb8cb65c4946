package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Rule is one check of the story format (diag.Rule); every diagnostic is
// created from a Rule value, never from a string.
type Rule = diag.Rule

var ruleIgnore = &Rule{ID: "ignore", Severity: diag.Warning, LintOnly: true,
	Summary: "a # kitsoki:ignore comment names an unknown rule or an error (which cannot be silenced), or (with --strict) suppresses nothing",
	Example: "x: 1  # kitsoki:ignore no-such-rule"}

// registry lists every rule: the loader's, then each rule of passes, once.
var registry = newRegistry()

func newRegistry() []*Rule {
	out := story.LoadRules()
	for _, ps := range passes() {
		if !slices.Contains(out, ps.rule) {
			out = append(out, ps.rule)
		}
	}
	return out
}

// Rules returns every rule, sorted by id. The values are copies: changing
// them changes nothing in the package.
func Rules() []Rule {
	out := diag.Values(registry)
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// lookupRule returns the rule with id, if there is one.
func lookupRule(id string) (Rule, bool) {
	for _, r := range registry {
		if r.ID == id {
			return *r, true
		}
	}
	return Rule{}, false
}

// Blocking reports whether d makes a story unrunnable: an error of a rule
// upstream's loader also enforces, or of an id this package does not know.
// Errors of a LintOnly rule are printed as warnings by run and eval
// (test checks none of them: LoadRunnable).
func Blocking(d diag.Diagnostic) bool {
	if d.Severity != diag.Error {
		return false
	}
	r, ok := lookupRule(d.Rule)
	return !ok || !r.LintOnly
}

// loaderAccepted reports whether r is a lint-only rule whose findings
// upstream's loader and validate accept: warnings here.
func loaderAccepted(r Rule) bool {
	switch r.ID {
	case ruleAgentAlias.ID, ruleAgentFile.ID, ruleAgentTemplate.ID, ruleOnErrorTarget.ID,
		rulePongo.ID, ruleSchema.ID, ruleSelection.ID, ruleViewRender.ID:
		return true
	}
	return false
}

// LoaderAccepted reports whether d is a finding of a rule upstream's
// loader and validate accept; a strict load refuses it as an error.
func LoaderAccepted(d diag.Diagnostic) bool {
	r, ok := lookupRule(d.Rule)
	return ok && loaderAccepted(r)
}

// IgnoreRule is the rule of findings about `# kitsoki:ignore` comments,
// reported by pkg/validate, which sees every diagnostic.
func IgnoreRule() Rule { return *ruleIgnore }
