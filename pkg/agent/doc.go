// Package agent owns kitsoki's Agent Plugin Contract: the wire types
// ([AskRequest], [AskResponse], [SubEvent], [AskError]), the [Registry] that
// turns agent_plugins: declarations into transports (or Go agents,
// [Registry.RegisterInProcess]) and the one [Registry.Dispatch] pipeline every
// agent call goes through. It must not import pkg/trace or pkg/engine (events
// leave through [Sink]), read a schema outside the story's schemas/, or let a
// declared secret reach a request, an event, an error or a log line.
//
// Dispatch, in order: build the request (rendered prompt, the schema's
// bundled form, with:, a deep-copied read-only world, a soft deadline inside
// the hard one, the deterministic call id of internal/agentcall); report agent.call.start with the
// request as the plugin receives it (request_log.go); call the transport
// under the hard deadline (DefaultTimeout unless set; a late answer is
// discarded and recorded); enforce the sub-event rules (namespace "<alias>.",
// matching call_id, timestamps re-stamped into the call window,
// all-or-nothing); validate the submission against the schema; report the
// sub-events and agent.call.complete, or agent.call.error. With [Hooks]
// ([Registry.SetHooks], from pkg/plugin), agent/pre-dispatch may rewrite the
// alias, prompt and with: or veto before the request is built, and
// agent/post-return may veto after validation (kind hook_vetoed); hook
// outcomes (hook.rewrote, hook.halted, hook.failed) go to the call's sink.
//
// Call ids (internal/agentcall, which the engine imports instead of this
// package): live calls use the key "<turn>:<state_path>:<seq>", cassette
// replays "<episode>:<match_idx>"; [AskError.FailedCall] gives the engine
// a failed call's id and alias. Secrets: everything leaving
// the registry passes its redactor (redact.go), and an answer is masked once
// as Dispatch returns it, so what the engine binds, says and traces holds no
// secret; raw, JSON-escaped and URL-encoded forms are matched; values under
// minSecretBytes, map keys, kinds and agent names are never masked.
//
// Layout: one file per transport: inprocess.go, cassette*.go (replay of a
// host_cassette fixture, which pkg/compose's HostCassette reads through
// ParseCassette too; never declarable in YAML), subprocess*.go (the
// JSON-RPC protocol; the process is internal/childproc's), mcp_http.go,
// claude_cli.go. builtin.local_llm (a llama-server it attaches to, or one
// fetched through pkg/fetch and supervised through pkg/sidecar) lives in
// pkg/agent/localllm, so this package imports neither fetch nor sidecar
// (imports_test.go holds the rule); the composition root adds its builder.
// builtin_transports.go keys the builders by plugin type
// ([RegistryOptions].Builders adds or overrides them); fallback.go
// re-dispatches a schema_invalid answer of a [Substituter] transport
// (builtin.local_llm) once to agent.claude with the same call id. Shared
// test support is internal/testing/agenttest; BenchmarkDispatch runs every
// entry of benchCases (bench_test.go).
package agent
