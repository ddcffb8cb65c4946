// Package validate owns the `kitsoki validate` job above a single story:
// expanding command-line paths (story directories, app.yaml files and
// DIR/... patterns) into story files, loading them in parallel through
// pkg/story, adding the problems of the operator's plugin profile
// (pkg/plugin) and of pinned selections' eval evidence (pkg/eval), and
// returning one deterministic, sorted list of diagnostics with inline
// `kitsoki:ignore` suppressions applied.
//
// It does not check stories itself (pkg/story does) and it does not print
// (cmd/ does).
package validate
