// Package phasese2e owns only tests: pkg/phases' expansion through the
// loader (pkg/lint), the fold, the engine and `kitsoki test` (the conformance
// stories of pkg/phases/testdata). It must not hold code other packages use.
// It lives apart so that pkg/phases' test binary, which has tests inside
// package phases, does not compile lint, the engine and flowtest a second
// time against them (every package that imports phases is rebuilt for a
// test binary whose package has internal tests).
package phasese2e
