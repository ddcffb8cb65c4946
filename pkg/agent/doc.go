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
// sub-events and agent.call.complete, or agent.call.error. [Hooks] may
// rewrite or veto a call before it is built and veto an answer after
// validation.
//
// Call ids are internal/agentcall's: "<turn>:<state_path>:<seq>" live,
// "<episode>:<match_idx>" on cassette replay. Everything leaving the
// registry passes its redactor (redact.go; the run's one [Redactor], which
// pkg/compose also hands the plugin assembly's hooks and host providers),
// and an answer is masked once as Dispatch returns it, so what the engine
// binds, says and traces holds no secret. An answer is decoded once, for
// the schema check: masking judges that value, and the engine binds it
// ([Result.Value]) without decoding the submission again.
//
// Layout: dispatch.go runs the pipeline, submission.go checks an answer
// against its schema, deadline.go holds a transport's Ask to the hard
// deadline; one file per transport (inprocess.go, cassette*.go,
// subprocess.go, mcp_http*.go, claude_cli.go); builtin.local_llm lives in pkg/agent/localllm
// so this package imports neither fetch nor sidecar (imports_test.go).
// fallback.go re-dispatches a [Substituter]'s schema_invalid answer once to
// agent.claude; notes.go carries what a transport learns about a call that
// the answer has no field for (mcp_session_id, a plugin's stray lines) to
// the call's result event.
package agent
