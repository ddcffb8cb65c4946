// Package doccheck holds the tests that keep the repository's docs true to
// its code: docs/fuzz-targets.md's table names every fuzz target of the
// module and no other, every file a package's doc.go names exists, and
// every test the docs name is declared. It
// must not be imported: it is test-only and has no API.
package doccheck
