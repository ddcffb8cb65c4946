// Package engine runs a loaded story headless, one shot, from its root state
// until it reaches an exit or terminal state or rests with no input left.
//
// It owns the run-time semantics of the story format (reference
// story-format.md §4–§6): world initialisation, effects (when, set,
// increment, say, invoke + with + bind, on_error, once, emit_intent + slots),
// transitions (leaf then ancestors, "*" wildcard, guards in order,
// default: true, every target form, templated targets, @exit:<name>,
// terminal: true) and the built-in hosts (host.run and host.agent.<verb>).
// Host calls other than those are answered from a host cassette or refused
// before anything runs, as are the constructs it does not execute (imports,
// phases, parallel states, background jobs).
//
// The engine does not parse YAML (pkg/story does), does not talk to agent
// transports itself (pkg/agent does, through the AgentCaller seam), and does
// not format trace lines (pkg/trace does, through the Sink seam). It never
// prints: the caller (cmd/run.go) receives a Result and an optional stream of
// Notes for its human log.
package engine
