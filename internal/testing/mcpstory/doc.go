// Package mcpstory owns the app.yaml the MCP tests share: a story whose
// agent aliases are mcp_http clients of loopback servers and whose start
// state calls through each. It must not be imported outside tests, and it
// writes only the YAML: servers, schemas and what a test checks are the
// test's own.
package mcpstory
