package plugin

import "kitsoki/pkg/diag"

// ruleProfile is the rule of every operator-profile problem (parse errors
// and assembly warnings) kitsoki validate reports. LintOnly: the story
// itself is fine; kitsoki run refuses a malformed profile on its own.
var ruleProfile = &diag.Rule{ID: "plugin-profile", Severity: diag.Error, LintOnly: true,
	Summary: "the operator plugin profile (.kitsoki/plugins.yaml): known keys, disabled ids, redact and budget config",
	Example: "disable: [transport.nope]"}

// Rules lists (a copy of) the rule of the package's diagnostics.
func Rules() []diag.Rule { return diag.Values([]*diag.Rule{ruleProfile}) }
