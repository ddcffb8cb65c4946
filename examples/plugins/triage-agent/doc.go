// Command triage-agent owns the examples' deterministic agent plugin: a
// subprocess plugin built on [kitsoki/pkg/pluginkit.Serve] whose decide,
// extract and ask answers come from fixed rules over the prompt. It must not
// call a model or the network, nor write anything but stderr (and its pid file
// when asked).
//
// In full, it is a small, deterministic kitsoki agent plugin for the
// examples: a subprocess plugin built on kitsoki/pkg/pluginkit (the contract:
// newline-delimited JSON-RPC 2.0, method agent.ask) whose answers come from
// fixed rules over the rendered prompt — no model, no network.
//
// Verbs:
//
//	decide   triage a CI failure: {action, category, reason, confidence, failing_tests}
//	extract  pull {severity, service} out of an alert text
//	ask      a one-line answer: {answer}
//
// It logs to stderr only and exits when stdin closes or on SIGTERM. When
// TRIAGE_AGENT_PIDFILE is set it writes its pid there at start (tests use it
// to check that kitsoki stops its plugins).
package main
