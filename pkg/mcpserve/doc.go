// Package mcpserve owns kitsoki mcp serve ([Server], [Catalog]): one MCP tool
// per agent alias × verb a story calls, dispatched through pkg/agent, and the
// submit server of builtin.claude_cli ([NewSubmitServer]). It must not run the
// story's state machine or choose transports: pkg/agent's registry does.
//
// In full, it serves a story's agent plugins as MCP tools (kitsoki mcp
// serve): one tool per agent alias × verb the story calls, named
// kitsoki_<slug>_<verb> (names.go), with input {prompt, args?} and the call
// site's schema as output schema. A call dispatches through the same
// agent.Registry pipeline as a story call (schema validation, hooks, trace
// events) and answers with the validated submission as structuredContent.
// Each catalog's story, assembly, registry and hook chain are built by
// pkg/compose (LoadStrict, ResolveWith, BuildWith), the composition root
// kitsoki run, test and eval run build through.
//
// Discovery is never authorization: every call first re-reads the story,
// the profile and the external plugin manifests (a content fingerprint), so
// an edit that revokes an alias or disables its transport fails the call
// closed even before the watcher has noticed; it then looks the tool up in
// the current catalog, re-checks that the alias is enabled and validates
// the input. Calls are single-attempt: nothing is retried, because a plugin
// may have had side effects.
//
// The catalog (catalog.go) is an immutable snapshot with a generation (one
// per server process) and a monotonic revision; Apply ignores a snapshot
// older than the current one, so a delayed refresh never restores removed
// tools. Applying a snapshot updates the SDK server's tool set, which sends
// notifications/tools/list_changed. Any reload failure (story no longer
// loads, malformed profile, colliding names) serves an empty catalog: fail
// closed, with the reason logged.
//
// What this package must not do: print (cmd/mcp.go owns the terminal),
// retry a call, or expose a resolved secret (the agent registry redacts).
package mcpserve
