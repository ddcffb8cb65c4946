// Command testhook owns an external hook provider for pkg/plugin's tests,
// behaving by the mode in its first argument. It must not be built or run
// outside tests.
//
// In full, it is an external hook provider for pkg/plugin's tests. It
// speaks the hook protocol (one JSON line in, one out) and behaves by mode
// (first argument): rewrite, reroute ALIAS, veto, crash, crash-once MARKER, sleep, garbage,
// pid.
package main
