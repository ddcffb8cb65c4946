// Package buggy is the deliberately failing package of the ci-triage example:
// `go test` on it fails, which is what the story triages. It lives under
// testdata/ so `go test ./...` in the repository never sees it.
package buggy

import "strings"

// Slug lowercases s and joins its words with dashes.
func Slug(s string) string {
	return strings.Join(strings.Fields(s), "-") // bug: forgets to lowercase
}
