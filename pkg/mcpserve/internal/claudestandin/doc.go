// Command claudestandin owns a STAND-IN for Anthropic's claude CLI for the
// submit-through-MCP tests: it starts the kitsoki stdio server from
// --mcp-config and submits through it. It must not be built or run outside
// tests.
//
// In full, it is a STAND-IN for Anthropic's `claude` CLI (which
// cannot run on these machines) for the submit-through-MCP tests: it reads
// --mcp-config, starts the "kitsoki" stdio server listed there with the
// MCP Go SDK client, first submits an answer that violates the schema
// (expecting a tool error), then the answer in $STANDIN_ANSWER, and prints
// claude's JSON result envelope.
package main
