// Package golden owns the golden-file check every package's tests share:
// the one -update flag, the comparison that names the file and the first
// differing line, and the atomic rewrite. It must not be imported outside
// tests, nor know what a golden holds: callers bring the text and the path.
package golden
