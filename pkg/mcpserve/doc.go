// Package mcpserve owns kitsoki mcp serve ([Server], [Catalog]): one MCP tool
// per agent alias × verb a story calls, dispatched through pkg/agent, and the
// submit server of builtin.claude_cli ([NewSubmitServer]). It must not run the
// story's state machine or choose transports: pkg/agent's registry does.
//
// A tool is named kitsoki_<slug>_<verb> (toolName), takes {prompt, args?}
// and has the call site's schema as output schema. Catalogs are built through
// pkg/compose ([kitsoki/pkg/compose.Load] with Strict, ResolveWith, BuildWith).
//
// Discovery is never authorization: every call first re-reads what the
// catalog was built from (a content fingerprint), so a revoked alias fails
// closed before the watcher notices. Calls are single-attempt (a plugin may
// have had side effects). A catalog is an immutable snapshot; [Server.Apply]
// ignores an older one, and a reload failure serves an empty catalog. The
// package never prints (cmd/mcp.go does).
package mcpserve
