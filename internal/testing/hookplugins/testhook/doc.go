// Command testhook owns an external hook provider for pkg/plugin's tests,
// behaving by the mode in its first argument. It must not be built or run
// outside tests.
//
// It speaks the hook protocol (one JSON line in, one out). Modes: rewrite,
// reroute ALIAS, veto, crash, crash-once MARKER, sleep, garbage, pid,
// blank-lines (blank lines before the answer), unterminated (the answer
// without its newline, then exit), and record-env NAME FILE (writes what
// NAME holds in its environment to FILE as it starts, then answers
// continue).
package main
