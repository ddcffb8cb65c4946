// Package agent owns kitsoki's Agent Plugin Contract: the wire types
// ([AskRequest], [AskResponse], [SubEvent], [AskError]), the [Registry] that
// turns agent_plugins: declarations into transports (or Go agents,
// [Registry.RegisterInProcess]) and the one [Registry.Dispatch] pipeline every
// agent call goes through. It must not import pkg/trace or pkg/engine (events
// leave through [Sink]), read a schema outside the story's schemas/, or let a
// declared secret reach a request, an event, an error or a log line.
//
// In full, it owns kitsoki's Agent Plugin Contract: the wire types sent to
// and received from a plugin (AskRequest, AskResponse, SubEvent, AskError),
// deterministic call ids, the registry that turns a story's agent_plugins:
// declarations into transports, and the single Dispatch pipeline every agent
// call goes through:
//
//  1. build the request: rendered prompt, the compiled schema in its
//     bundled (self-contained) form, the story's with: block, a deep-copied
//     read-only world snapshot, the soft deadline (never past the hard
//     timeout nor the context's own deadline) and the deterministic call_id;
//  2. report agent.call.start to the event Sink, with the request as the
//     plugin receives it (request_log.go: alias, provider, system prompt,
//     with, schema, deadline, timeout; masked);
//  3. hand the request to the transport under a hard context deadline
//     (default 10 minutes, per-call override); an answer that arrives after
//     the deadline is discarded and recorded as such on agent.call.error;
//  4. enforce the sub-event rules (namespace "<alias>.", matching call_id,
//     timestamps re-stamped inside the call window, all-or-nothing);
//  5. validate the submission against the schema (schema_invalid with the
//     JSON pointer and the failed constraint);
//  6. report the sub-events and agent.call.complete, or agent.call.error.
//
// With hooks attached (Registry.SetHooks; pkg/plugin provides them, see
// hooks.go), agent/pre-dispatch runs before step 1 and may rewrite the
// alias, prompt and with: or veto, so agent.call.start records the request
// exactly as the plugin receives it; agent/post-return runs after step 5
// and may veto. A veto is an AskError of kind hook_vetoed; hook outcomes
// (hook.rewrote, hook.halted, hook.failed) go to the call's sink.
//
// Each transport lives in its own file: inprocess.go (Go agents registered
// with Registry.RegisterInProcess), cassette.go (deterministic replay from a
// host_cassette fixture; never declarable in YAML), and the out-of-process
// transports subprocess, mcp_http, builtin.claude_cli and builtin.local_llm
// (local_llm*.go: a llama-server it attaches to, or one it fetches through
// pkg/fetch and supervises through pkg/sidecar). Builders are keyed by plugin
// type (builtin_transports.go); RegistryOptions.Builders overrides them.
// A schema_invalid answer from builtin.local_llm is re-dispatched once to
// agent.claude with the same call id (fallback.go).
//
// Call ids are deterministic (CallID): live calls use the key
// "<turn>:<state_path>:<seq>" where seq counts the calls of that session,
// turn and state; cassette replays use "<episode>:<match_idx>".
//
// Tests: pkg/agent/agenttest holds the shared test support (RecordingSink,
// the conformance reference call and submission, the in-process echo/fault
// agent whose modes the out-of-process test plugins mirror, Fixture).
// BenchmarkDispatch runs every entry of benchCases (bench_test.go); other
// test files of the package add transports from an init function.
//
// What this package must not do: import pkg/trace or pkg/engine (events leave
// through the Sink interface defined here), read a schema outside the story's
// schemas/ directory (pkg/schema enforces the root), or let a resolved
// env:/headers: secret reach a request, an event, an error or a log line
// (everything produced passes through the registry's redactor, redact.go:
// a plugin's answer is masked once as Dispatch returns it, so what the
// engine binds, says and traces never holds a secret; every form of a
// value — raw, JSON-escaped, URL-encoded — is matched; values under 4
// bytes, map keys, kinds and agent names are never masked).
package agent
