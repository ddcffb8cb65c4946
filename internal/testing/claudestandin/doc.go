// Command claudestandin owns a STAND-IN for Anthropic's claude CLI for the
// submit-through-MCP tests: it starts the kitsoki stdio server from
// --mcp-config and submits through it. It must not be built or run outside
// tests.
//
// It starts the "kitsoki" server of --mcp-config with the MCP Go SDK client,
// first submits an answer that violates the schema (expecting a tool error),
// then the answer in $STANDIN_ANSWER, and prints claude's JSON result
// envelope.
package main
