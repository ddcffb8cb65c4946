// Package modroot owns finding the module root, the folder holding go.mod,
// from the working folder go test runs in ([Dir]), for the test helpers
// that name paths from it (golden's rewrite command, storytest's shared/).
// It must not be imported outside tests and test tools, nor read go.mod.
package modroot
