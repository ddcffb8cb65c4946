// Package validate owns the kitsoki validate job above a single story:
// expanding paths into story files ([Expand]), loading them in parallel
// through pkg/story with one parse cache, and the rule list ([Rules]). It must
// not check a story itself (pkg/story does) nor format output (cmd/ does).
//
// In full, it owns the `kitsoki validate` job above a single story:
// expanding command-line paths (story directories, app.yaml files and
// DIR/... patterns) into story files, loading them in parallel through
// pkg/story with one shared parse cache (a file imported by many stories is
// parsed once per process), adding the problems of the operator's plugin
// profile (pkg/plugin), of pinned selections' eval evidence (pkg/eval) and,
// with Options.Flows, of the flow fixtures beside each story that checks
// clean (pkg/flowtest's lint, against the story already loaded, fixture
// documents decoded once per run: flows.go),
// applying `kitsoki:ignore` markers, and returning one deterministic, sorted
// list of diagnostics. It also owns the list of every rule a run can report
// (Rules) and docs/checks.md generated from it (checksMarkdown).
//
// It does not check stories itself (pkg/story does) and it does not print
// (cmd/ does).
package validate
