// Package mcpecho owns a real MCP server (official MCP Go SDK) that
// pkg/agent's tests serve on loopback and reach through mcp_http, answering
// like package echo. It must not be imported outside tests.
//
// Its tool (default "ask") takes the AskRequest as arguments. Faults, selected
// by the request's with.fault:
//
//	is_error     a tool result with isError true and a text explaining why
//	echo_auth    isError, quoting the request's Authorization header
//	garbage      a text content that is not AskResponse JSON
//	hang         never answer (until the request or the server stops)
//	late         answer 5 s after the request's deadline
//	slow:<ms>    answer after <ms> milliseconds
//	http500      the HTTP layer answers 500 before MCP sees the request
//	drop, crash  the HTTP layer closes the connection without an answer
//
// plus the answer-level faults of package echo.
package mcpecho
