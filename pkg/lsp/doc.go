// Package lsp owns kitsoki's language server ([Server]): the checks of kitsoki
// validate on unsaved buffers, and navigation (definition, hover, completion,
// symbols, quick fixes). It must not run a story, call an agent or write a
// story file: it reads through pkg/story and answers the editor.
//
// It speaks LSP through github.com/tliron/glsp's protocol types and
// sourcegraph/jsonrpc2's framing (one stack: glsp's own server is built on
// jsonrpc2; this package drives the connection itself to bound each frame,
// frame.go, which glsp's server does not), and loads stories with the open
// buffers as an overlay. It serves only inside its workspace roots (roots.go): a
// document outside them is never read, checked or published for, and a
// story is loaded under its project root, so navigation follows pkg/story's
// confinement. Coverage hints come from a profile beside a story
// (coverage.go); completion reads buffers that may not parse yet (keyPath,
// flowctx.go).
package lsp
