// Package mcpserve owns kitsoki mcp serve ([Server], [Catalog]): one MCP tool
// per agent alias × verb a story calls, dispatched through pkg/agent, and the
// submit server of builtin.claude_cli ([NewSubmitServer]). It must not run the
// story's state machine or choose transports: pkg/agent's registry does.
//
// A tool is named kitsoki_<slug>_<verb> (toolName), takes {prompt, args?}
// and has the call site's schema as output schema; it answers with the
// validated submission as structuredContent. Catalogs are built through
// pkg/compose ([kitsoki/pkg/compose.Load] with Strict, ResolveWith, BuildWith).
//
// Discovery is never authorization: every call first re-reads the story, the
// profile and the external manifests (a content fingerprint), so a revoked
// alias fails closed before the watcher notices; it then re-checks the tool,
// the alias and the input. Calls are single-attempt (a plugin may have had
// side effects). A catalog is an immutable snapshot with a generation and a
// monotonic revision; [Server.Apply] ignores an older one, so a late refresh
// never restores removed tools. A reload failure serves an empty catalog,
// with the reason logged. The package never prints (cmd/mcp.go does).
package mcpserve
