// Package diag owns positioned diagnostics ([Diagnostic]) and the shape of
// the rules they name ([Rule]): their order, `# kitsoki:ignore` markers
// ([ApplyIgnores]) and output formats ([Write], [WriteHuman], JSON,
// [WriteGitHub], SARIF, Code Climate). It must not know about stories nor read files other
// than to quote a source line: callers produce the diagnostics and declare
// the rules.
//
// [Sort] also shortens a message past [MaxMessage] (its start and its end
// kept), since messages quote a story's names and values.
//
// A diagnostic also carries, unprinted, the [Place] its message starts
// with (a state, a state's intent, an intent: place.go) and the format it
// was made from, as data: the linter renames the place of an imported
// child's errors and validate tells findings apart by them, neither
// reading a message. Place only names; it knows nothing else of stories.
//
// Applying markers also reports those that name an unknown rule or aim at an
// error, and those that suppress nothing ([IgnoreResult]). The human format
// quotes the source line with a caret indented by display cells (width.go)
// and a ~ under the rest of the token;
// SARIF (sarif.go) is 2.1.0 with repository-relative, percent-encoded URIs;
// Code Climate (codeclimate.go) is GitLab's code quality JSON, paths
// relative to the repository root.
package diag
