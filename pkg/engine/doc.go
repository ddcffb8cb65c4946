// Package engine runs a loaded story: a [Session] takes one turn at a time
// (kitsoki test drives it fixture turn by fixture turn) and [RunSession]
// drives a session to its end for kitsoki run, on the same turn path (only
// the driving is RunSession's: inputs in order, a refused input or a
// failed turn ends it, resting timeouts are waited out).
// It owns the run-time semantics of the story format (story-runtime.md,
// story-format.md §4–§6) and the trace events they write; it must not parse
// YAML (pkg/story), fold imports (pkg/fold, called at [Compile]), serve host
// handlers (pkg/host, through a *host.Registry), read recordings of host
// calls (pkg/compose's host cassette, through [HostReplay]), render views
// (pkg/view, through [ViewRenderer]), talk to agent transports (pkg/agent,
// through [AgentCaller]) or format trace lines (pkg/trace, through [Sink]).
//
// A session's state lives on its runner (the machine, options, the
// configuration, world, turn counter, clock, hosts, jobs, inbox, armed
// timeout, and the journal of keys written since the last turn began); the
// scratch of the turn being run (its events, say narration, redirect and
// view decisions, the batch being dispatched, the held walk) is one turn
// value, made fresh by newTurn at each turn start, user or synthetic, so
// nothing of one turn reaches the next.
//
// The [Machine] is compiled once before anything runs. A user intent passes
// the allowed-set check and the slots or is a *[Rejection] with upstream's
// codes ([CodeNotAllowed], ...); a guard or template error is turn-fatal and
// restores state and world. Host calls are queued while a step is walked and
// dispatched after it; emit_intent entries are decided where the chain
// reaches them and fired depth-first (up to maxEmitDepth) before that
// dispatch, and a user turn's post-bind pass then re-reads the resting
// state's own on_enter emits (emits.go); on_error redirects stop after
// depth maxOnErrorDepth. Turn 0 is [SessionOptions].Bootstrap. Every choice
// where upstream is odd (the replayed world, dispatch-time with:, flat
// on_error/timeout/on_complete landings, parallel regions, timeouts,
// background jobs, MachineOnly) is a bullet of docs/compat/engine.md. Values
// follow upstream by default (set coercion journaled as the string, slot
// types and validators unchecked, increments of non-integers restarting
// from the delta); [Options].Strict turns the stricter checks on. The
// engine never prints: callers receive Turns, a [Result] and an optional
// stream of [Note] for a human log.
//
// Layout: session.go (the Session API), run.go (RunSession's loop),
// options.go (a run's Options and Result), runner.go (the runner: session
// state), start.go (placing the machine, turn 0), userturn.go (a user
// turn's life: begin, walk, reject, fail, close), allowed.go (the
// allowed-set check), renderat.go (rendering a state's view), queued.go
// (what a step queues), turn.go (the per-turn scratch), turnview.go (which
// render turn.end shows, with its narration or banner; the renders it may
// fall back on are kept by redirectview.go and postpassview.go), fire.go
// (firing an intent: the arm, its walk), target.go (resolving a target and
// landing on it), move.go (leaving and entering states), step.go (settling
// a step: its queued calls, on_error redirects), emits.go (emit_intent
// hops, the post-bind pass), effects.go (the effects walk), invoke.go
// (dispatching one queued call: render, call, bind), parallel.go (regions,
// emit: propagation), jobs.go (background jobs), jobs_heard.go (the
// jobs a listener stopping at a terminal rest still hears), oncomplete.go
// (a job's completion turn, its on_complete chain), inbox.go (the inbox),
// replay.go (the world's replayed shape between turns), held.go
// (walk events in upstream's order), events.go (event kinds and how the
// runner writes them); the other files are named for what they hold.
package engine
