// Package engine runs a loaded story headless, one shot, from its root state
// until it reaches an exit or terminal state or rests with no input left.
//
// It owns the run-time semantics of the story format (reference
// story-format.md §4–§6): world initialisation, effects (when, set,
// increment, say, invoke + with + bind, on_error, once, emit_intent + slots),
// transitions (leaf then ancestors, "*" wildcard, guards in order,
// default: true, every target form, templated targets, @exit:<name>,
// terminal: true), state timeout: and the built-in hosts (host.run and
// host.agent.<verb>).
// Host calls other than those are answered from a host cassette or refused
// before anything runs, as are the constructs it does not execute (imports,
// phases, parallel states, background jobs): Compile reports every one of
// them, by name and position, and returns no Machine.
//
// Semantics worth knowing:
//
//   - Effects run in order and each sees the world left by the previous one.
//     Host calls are queued, as in the reference (story-format §5.2): while
//     the machine walks a step (transition effects, then the on_enter of
//     every state entered) an invoke whose when: passes and whose once:
//     allows it (both judged at walk time) is queued with the state whose
//     chain reached it and the slots in force. After the walk the queued
//     calls are dispatched in order; each one's with: is rendered then, so
//     it sees the binds of the calls before it and sets written after it in
//     its chain, while a set/say/when after an invoke in the same chain sees
//     the world before that invoke's bind. Trace events of a call
//     (harness.called, harness.returned, agent.call.*) and its CallSummary
//     are credited to the state that queued it.
//   - Only the first of set > increment > say > invoke applies per entry.
//   - emit_intent effects are evaluated (when:, the name, slots:) after the
//     whole step — transition effects and every on_enter entered — has run
//     and its queued calls are dispatched, so they see every bind (there is
//     no pre-bind emit pass: an emit fires at most once per entry). Each non-empty name is fired in order at the
//     then-current state; an empty name emits nothing. Synthetic intents
//     nest at most 8 deep.
//   - A failed invoke sets world.last_error (string) and world.host_error
//     ({handler, call, error, state}); with on_error the calls still queued
//     and the step's emit_intent effects are dropped and the machine
//     re-enters the on_error target, whose own step is dispatched the same
//     way (at most 4 redirects in a row). This holds even when the step had
//     reached a terminal state or an exit: the redirect takes it back (an
//     on_error of "." leaves the step where it ended).
//     Without on_error the run fails.
//   - A user intent that no state handles, or whose every guard fails,
//     fails the run (a one-shot run cannot ask again).
//   - A state's timeout: {after, target} fires when the run rests (no
//     input left) inside it: inputs are consumed first, so a timeout never
//     pre-empts one. The innermost active state with a timeout wins; the
//     wait starts when the machine rests; after: may be templated (rendered
//     then) and is a Go duration or Nd. Firing is one synthetic turn
//     (turn.start "[timeout] <state>", machine.timeout, machine.transition
//     with an empty intent, then the usual exits/entries). The run's
//     context (kitsoki run --timeout, Ctrl-C) ends a pending wait: the run
//     fails as interrupted. A target of "." is refused (it would fire for
//     ever).
//   - Declared slots shape each --intent input before it fires: a left-out
//     slot takes its default:, a missing required: slot or an enum value
//     outside values: rejects the input (machine.validation_failed
//     SLOT_INVALID) and fails the run — a one-shot run cannot ask. The
//     innermost state-local intents: declaration wins over the global one.
//     Synthetic intents (emit_intent) carry exactly the slots they render.
//   - Keys a headless run would otherwise ignore are refused at compile:
//     the engine-driven gate decider (decider: block, state decider: llm),
//     on_exit (not in the format), slot validator:, background:,
//     on_complete and inline effects: outside on_complete. Keys with no effect on a one-shot run by definition are
//     accepted: presentation (view, menu, footer, theme, transcript,
//     description, push_history; guard_hint only words a rejection),
//     free-text routing that --intent input never reaches (default_intent,
//     agent_off_ramp, contextual_routing, routing:, off_path:, meta_modes:),
//     emit: to parallel regions (a run has none: parallel states are
//     refused) and selection: pins (metadata only, story-format §8.4).
//   - Prompts render through PromptRenderer with the story's search path:
//     prompts.overlay, the story directory, prompts/; @story/ and @shared/.
//     A prompt_path that names no file fails the call (with on_error it is
//     handled like any failed invoke); prompt: names a file when one
//     exists, else it is inline text.
//   - Turn 0 is the bootstrap (session.story snapshot, world overrides,
//     the root's on_enter chain); each consumed input is one more turn.
//
// The engine does not parse YAML (pkg/story does), does not talk to agent
// transports itself (pkg/agent does, through the AgentCaller seam;
// RegistryCaller adapts *agent.Registry), and does not format trace lines
// (pkg/trace does, through the Sink seam; TraceSink adapts *trace.Writer).
// Prompt rendering lives in PromptRenderer.RenderAgentCall, which the run
// and pkg/eval share, so an eval renders exactly what a run sends.
//
// It never prints: the caller (cmd/run.go) receives a Result and an optional
// stream of Notes for its human log.
package engine
