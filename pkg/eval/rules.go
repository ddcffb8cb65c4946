package eval

import "kitsoki/pkg/diag"

// The rules of this package's diagnostics; both are LintOnly.
var (
	ruleSelection = &diag.Rule{ID: "selection-evidence", Severity: diag.Warning, LintOnly: true,
		Summary: "a pinned selection's eval evidence is missing, stale or failing (kitsoki eval check is the gate)",
		Example: "selection: {profile: fast, evidence: evals/reports/old.json}"}
	ruleEval = &diag.Rule{ID: "eval", Severity: diag.Error, LintOnly: true,
		Summary: "an eval dataset or report a selection names cannot be read",
		Example: "evals/merge_judge.yaml: examples: at least one example is required"}
)

// rules lists the package's rules in documentation order.
var rules = []*diag.Rule{ruleSelection, ruleEval}

// Rules lists (copies of) the rules of the package's diagnostics.
func Rules() []diag.Rule { return diag.Values(rules) }
