// Package lazyre owns regular expressions compiled on first use, so that a
// package-level pattern costs nothing when kitsoki starts a command that never
// matches it. It must not touch anything but the standard regexp package: it
// knows no kitsoki pattern and holds no state beyond each Regexp's own.
package lazyre
