// Package tsmcp drives MCP servers with the official MCP TypeScript SDK
// client (npm @modelcontextprotocol/sdk), for tests only: a standard client
// nobody on the project wrote. It owns the pinned package.json and
// package-lock.json (testdata/), installs them once per lock into the user
// cache with npm ci (the npm registry is the only network it uses), and runs
// testdata/client.mjs; it must not touch anything else.
package tsmcp
