// Package engine runs a loaded story: a Session takes one turn at a time
// (kitsoki test drives it fixture turn by fixture turn) and Run drives a
// session to its end for kitsoki run.
// It owns the run-time semantics of the story format (story-runtime.md,
// story-format.md §4–§6) and the trace events they write; it must not parse
// YAML (pkg/story), fold imports (pkg/fold, called at Compile), serve host
// handlers (pkg/host, through a *host.Registry), render views (pkg/view,
// through ViewRenderer), talk to agent transports (pkg/agent, through
// AgentCaller) or format trace lines (pkg/trace, through Sink).
//
// Files: session.go (the Session API: Start, Fire, Advance, State, World,
// Outcome, Jobs, Inbox, Wait, Override, Close), run.go (Run, the turn loop,
// rejections), step.go (effects walk, queued calls, on_error, emit hops,
// entering and leaving states), parallel.go (parallel configurations,
// regions, emit: propagation), timeout.go (timeouts on the clock), jobs.go
// (background jobs, on_complete, clarifications, the inbox), gates.go
// (decision gates, decider: human, staged mode), slots.go (slot defaults,
// enums, types and validators), clock.go (the wall and virtual clocks),
// compile.go (the executable Machine, built once before anything runs).
//
// Semantics worth knowing (each choice where upstream is odd is listed in
// docs/compat/engine.md):
//
//   - Turn 0 (SessionOptions.Bootstrap, kitsoki run) writes session.story
//     and the world overrides, then runs the on_enter chain of every state
//     from the top down to the start leaf. The flow rig starts at
//     StartState with no on_enter run (story-runtime §0).
//   - A user intent goes through the allowed-set check (the leaf and its
//     ancestors, every region of a parallel state; import aliases), then
//     the slots (defaults, required, enum values, declared type:,
//     validator:). A miss is a *Rejection with upstream's codes
//     (INTENT_NOT_ALLOWED_IN_STATE, MISSING_SLOTS, INVALID_SLOT_VALUE,
//     GUARD_FAILED); a missing required slot writes no event and uses no
//     turn number. A guard or template error is turn-fatal: the state and
//     world are restored and the turn ends with outcome "error".
//   - Effects run in order; only the first of set > increment > say >
//     invoke applies per entry. Host calls are queued while a step is
//     walked and dispatched after it (in a session a foreground call's
//     with: is rendered at dispatch against the world at the invoke's
//     place in the chain plus the batch's earlier binds, as upstream; in
//     kitsoki run against the live world; a session writes harness.called
//     at walk time and harness.dispatched at dispatch, kitsoki run one
//     harness.called at dispatch); a domain error still binds its data; a failure
//     sets last_error and host_error {message, namespace, ...}; with
//     on_error the rest of the batch is dropped and the target (resolved
//     against the declaring state) is entered — at most 5 redirects in a
//     row (depths 0-4), then harness.error on_error.depth_cap_exceeded
//     (the view is then the originating state's); without on_error a
//     session goes on (kitsoki run fails, as before). on_error, timeout
//     and on_complete targets are landed flat as upstream's: one exit,
//     one entry, only the target's own on_enter, no initial: descent.
//   - Between a session's turns the world takes the shape upstream's
//     per-turn replay gives it: numbers written by a world.update set are
//     float64 (a key declared type: int an int64), increments int64.
//   - emit_intent entries are evaluated after the step's calls are
//     dispatched (they see every bind) and fired depth-first, at most 24
//     deep (upstream's measured cap, not the documented 8). A turn that
//     rests without entering its leaf (a stay arc) re-evaluates the leaf's
//     own on_enter emits. At a decision gate decider: human stops the
//     chain (machine.gate_decided bailed_to_human), and in staged mode so
//     does any emit that only names an intent after the binds, unless the
//     state pins decider: llm.
//   - SessionOptions.MachineOnly (the flow rig's legacy path) is the
//     machine alone: harness.called is written but no host call is queued
//     or dispatched (no job, no bind), emits are evaluated where the chain
//     reaches them and no post-bind pass runs.
//   - Parallel states rest as "root#leafA|leafB" (leaves sorted). A user
//     intent goes to the first region (in name order) with a winning arm;
//     a target inside the root moves the region that contains it, one
//     outside exits the whole configuration; emit: events propagate to
//     every other region (depth cap 24), the winning region already at
//     its new leaf.
//   - Timeouts: after every successful turn the resting state's own
//     timeout: (a parallel root's in a parallel configuration; never a
//     compound ancestor's, as upstream) is armed on the session's clock; Advance fires what falls due in time order, together with
//     background completions. Targets are rendered and resolved like arc
//     targets.
//   - Background jobs (background: true) bind their id (job_id / last_job_id)
//     and write scheduler.submitted at once; with a virtual clock the
//     handler answers at once and the job completes when the clock passes
//     its delay, with the wall clock it runs on its own goroutine. Its
//     completion is a synthetic turn that runs on_complete from the origin
//     state (skipped when the session moved on) with last_job_id,
//     last_job_status and last_job_result set, then the first target whose
//     when: passes (an on_error redirect wins). A handler's clarification
//     parks the job in awaiting_input (an action_required notification)
//     until host.jobs.answer_clarification answers it.
//
// It never prints: callers receive Turns, a Result and an optional stream
// of Notes for a human log.
package engine
