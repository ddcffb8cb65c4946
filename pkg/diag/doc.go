// Package diag owns positioned diagnostics ([Diagnostic]): their order
// ([Sort]), `# kitsoki:ignore` markers ([Marker], [ApplyIgnores]) and output
// formats ([Write] in each [Format]: [WriteHuman], [WriteJSON], [WriteGitHub],
// SARIF). It must not know about stories nor read files other than to quote a
// source line: callers produce the diagnostics and name the rules.
//
// Applying markers also reports those that name an unknown rule or aim at an
// error, and those that suppress nothing ([IgnoreResult]). The human format
// quotes the source line with a caret indented by display cells (width.go);
// SARIF (sarif.go) is 2.1.0 with repository-relative, percent-encoded URIs.
package diag
