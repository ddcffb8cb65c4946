// Package diag owns positioned diagnostics ([Diagnostic]) and the shape of
// the rules they name ([Rule]): their order, `# kitsoki:ignore` markers
// ([ApplyIgnores]) and output formats ([Write], [WriteHuman], JSON,
// [WriteGitHub], SARIF). It must not know about stories nor read files other
// than to quote a source line: callers produce the diagnostics and declare
// the rules.
//
// In full, it owns positioned diagnostics: the value every check in kitsoki
// produces ({file, line, col, severity, rule, message}), their deterministic
// order, `# kitsoki:ignore` markers (which warnings they suppress, which name
// unknown rules, which suppress nothing), and their output formats (human
// with the source line and a caret indented by display cells, JSON, GitHub
// workflow annotations, SARIF 2.1.0 with repository-relative,
// percent-encoded URIs).
//
// It knows nothing about stories: callers produce diagnostics and name the
// known rule ids; diag sorts, filters and prints them. It never reads files
// other than to quote a source line.
package diag
