// Package storytest owns the file-system and build helpers several
// packages' tests share: writing a story tree, copying a directory, building
// a repository program. It must not be imported outside tests, nor know what
// a story says: callers bring the file contents and the package paths.
package storytest
