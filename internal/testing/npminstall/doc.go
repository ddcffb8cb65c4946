// Package npminstall owns installing a pinned npm package set for tests
// ([Dir]): once per lock, into the user cache, with npm ci. It must not be
// imported outside tests nor touch any network but the npm registry.
//
// Test helpers that drive a real JavaScript tool (internal/testing/tsmcp's
// MCP TypeScript SDK client, internal/testing/mermaidcheck's Mermaid parser)
// embed their package.json, package-lock.json and script, and ask Dir for
// the directory holding them with node_modules installed.
package npminstall
