// Package diag owns positioned diagnostics: the value every check in kitsoki
// produces ({file, line, col, severity, rule, message}), their deterministic
// order, and their output formats (human with source line and caret, JSON,
// GitHub workflow annotations, SARIF 2.1.0).
//
// It knows nothing about stories: callers produce diagnostics, diag sorts and
// prints them. It never reads files other than to quote a source line.
package diag
