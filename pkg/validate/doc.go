// Package validate owns the kitsoki validate job above a single story:
// expanding paths into story files ([Expand]), loading them in parallel
// through pkg/story ([Run]), and the rule list ([Rules]).
// It must not check a story itself (pkg/story does) nor format output (cmd/
// does).
//
// [Run] adds the fold's error for an import tree past fold.MaxRepeats
// ([Options].MaxRepeats in tests) (fold.go:
// no lint rule can tell, as pkg/lint does not fold), the problems of the
// operator's plugin profile (pkg/plugin) and of
// pinned selections' eval evidence (pkg/eval) and, with [Options].Flows, of
// the flow fixtures beside each story (linted against the story already
// loaded: flows.go), reports a child checked on its own and inside its
// importer once (folded_twice.go), applies `kitsoki:ignore`
// markers and returns one sorted list. docs/checks.md is generated from
// [Rules] by a test (checks_doc_gen_test.go) that keeps it equal.
package validate
