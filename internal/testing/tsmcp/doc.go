// Package tsmcp owns driving MCP servers in tests with the official MCP
// TypeScript SDK client ([Call]), installed once per pinned lock by [npminstall.Dir].
// It must not be imported outside tests nor touch any network but the npm
// registry.
//
// The client (npm @modelcontextprotocol/sdk) is a standard one nobody on the
// project wrote. testdata/ holds the pinned package.json and
// package-lock.json, installed into the user cache, and client.mjs, the
// script each call runs.
package tsmcp
