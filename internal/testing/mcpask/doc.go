// Package mcpask owns the real MCP server tests put behind an mcp_http
// agent ([Serve]): the go-sdk's server over streamable HTTP on loopback
// with the one "ask" tool kitsoki's mcp_http transport calls. It must not be
// imported outside tests, nor decide what a test's agent answers: the test
// passes that in.
package mcpask
