// Package junit owns the JUnit XML report types (the dialect Jenkins,
// GitLab and GitHub test reporters read) and [Write], which escapes their
// text with internal/termsafe and encodes them. It must not decide what a
// suite or a case is: `kitsoki test` and `kitsoki eval` build their own.
package junit
