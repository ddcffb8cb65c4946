// Package lint owns the static checks of the story format: the rule
// registry ([Rules], [Blocking]), the passes that run every
// rule over a loaded story, and each rule's check. It must not parse YAML,
// load files into the model or resolve imports (pkg/story does), nor run,
// fold or expand a story itself (pkg/engine, pkg/fold, pkg/phases): the
// states phases: generates are checked on a copy pkg/phases expands
// (rule_phases_expanded.go).
//
// [story.Load] parses every file into the model; [Check] then runs every
// pass over the story and over each imported child, in its importers'
// context (lifted.go), as upstream checks a child only after folding it.
// [Load] and [LoadSource] are the one place a command gets a
// story with every diagnostic, sorted; [LoadRunnable] skips the passes
// of LintOnly rules for a command that prints none of their findings
// (kitsoki test). A rule that panics is reported as
// rule internal, never as a crash.
//
// Every diagnostic is created from a *[Rule] value, never from a string.
// [Blocking] tells run, test and eval whether a diagnostic makes the story
// unrunnable: errors of a LintOnly rule (something upstream's loader
// accepts) are printed as warnings there. Findings upstream's validate
// also passes are warnings already ([LoaderAccepted]).
//
// Adding a rule: one rule_<name>.go holding its *Rule value and check
// function, one line in passes (check.go), and a broken story under
// pkg/story/testdata/broken/<id>/ (then go test ./pkg/lint -run
// BrokenGolden -update, and go test ./pkg/validate -run ChecksDoc -update).
package lint
