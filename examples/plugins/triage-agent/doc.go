// Command triage-agent owns the examples' deterministic agent plugin: a
// subprocess plugin built on [kitsoki/pkg/pluginkit.Serve] whose decide,
// extract and ask answers come from fixed rules over the prompt. It must not
// call a model or the network, nor write anything but stderr (and its pid file
// when asked).
//
// Verbs:
//
//	decide   triage a CI failure: {action, category, reason, confidence, failing_tests}
//	extract  pull {severity, service} out of an alert text
//	ask      a one-line answer: {answer}
//
// It exits when stdin closes or on SIGTERM. When
// TRIAGE_AGENT_PIDFILE is set it writes its pid there at start (tests use it
// to check that kitsoki stops its plugins).
package main
