package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Rule is one check of the story format: the shared diag.Rule (id,
// severity, summary, example, LintOnly: upstream's loader accepts a story
// with the finding; see Blocking).
//
// Every diagnostic the package reports is created from a Rule value, never
// from a string: yamlnode.Reporter.Errf/Warnf take a *Rule.
type Rule = diag.Rule

var (
	ruleIgnore = &Rule{ID: "ignore", Severity: diag.Warning, LintOnly: true,
		Summary: "a # kitsoki:ignore comment names an unknown rule or an error (which cannot be silenced), or (with --strict) suppresses nothing",
		Example: "x: 1  # kitsoki:ignore no-such-rule"}
)

// registry lists every rule: the loader's (story.LoadRules), then each
// rule of passes, once.
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

// LookupRule returns the rule with id, if there is one.
func LookupRule(id string) (Rule, bool) {
	for _, r := range registry {
		if r.ID == id {
			return *r, true
		}
	}
	return Rule{}, false
}

// Blocking reports whether d makes a story unrunnable: an error of a rule
// upstream's loader also enforces. Warnings never block; errors of a
// LintOnly rule (a missing prompt file, a dangling on_error, a view that
// cannot render, ...) do not block either: run, test and eval print them as
// warnings and go ahead, as upstream would load the story. An error with an
// id this package does not know (another package's finding) blocks.
func Blocking(d diag.Diagnostic) bool {
	if d.Severity != diag.Error {
		return false
	}
	r, ok := LookupRule(d.Rule)
	return !ok || !r.LintOnly
}

// loaderAccepted reports whether r is one of the lint-only rules whose
// findings upstream's loader and validate accept (a missing prompt file, a
// template that cannot compile, a dangling on_error, ...): they are
// warnings here, for validate may warn but not fail where upstream passes.
func loaderAccepted(r Rule) bool {
	switch r.ID {
	case ruleAgentAlias.ID, ruleAgentFile.ID, ruleAgentTemplate.ID, ruleOnErrorTarget.ID,
		rulePongo.ID, ruleSchema.ID, ruleSelection.ID, ruleViewRender.ID:
		return true
	}
	return false
}

// LoaderAccepted reports whether d is a finding of a rule upstream's
// loader and validate accept (loaderAccepted): a warning that run and test
// print, and that a strict load refuses as it refuses an error.
func LoaderAccepted(d diag.Diagnostic) bool {
	r, ok := LookupRule(d.Rule)
	return ok && loaderAccepted(r)
}

// Unrunnable reports whether any diagnostic of ds is Blocking.
func Unrunnable(ds []diag.Diagnostic) bool {
	return slices.ContainsFunc(ds, Blocking)
}

// IgnoreRule is the rule of findings about `# kitsoki:ignore` comments
// (unknown ids, suppressions that suppress nothing), reported by the
// validate job, which sees every diagnostic.
func IgnoreRule() Rule { return *ruleIgnore }
