// Package tsmcp owns driving MCP servers in tests with the official MCP
// TypeScript SDK client ([Call]), installed once per pinned lock with npm ci.
// It must not be imported outside tests nor touch any network but the npm
// registry.
//
// In full, it drives MCP servers with the official MCP TypeScript SDK
// client (npm @modelcontextprotocol/sdk), for tests only: a standard client
// nobody on the project wrote. It owns the pinned package.json and
// package-lock.json (testdata/), installs them once per lock into the user
// cache with npm ci (the npm registry is the only network it uses), and runs
// testdata/client.mjs; it must not touch anything else.
package tsmcp
