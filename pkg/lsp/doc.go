// Package lsp owns kitsoki's language server ([Server]): the checks of kitsoki
// validate on unsaved buffers, and navigation (definition, hover, completion,
// symbols, quick fixes). It must not run a story, call an agent or write a
// story file: it reads through pkg/story and answers the editor.
//
// It speaks LSP through github.com/tliron/glsp's protocol types and
// sourcegraph/jsonrpc2's framing (no framing is written here), and loads
// stories with the open buffers as an overlay, publishing diagnostics for
// every file of a story. A JSON coverage profile beside a story
// (coverage.EditorProfile) adds the parts no fixture reached as hints
// (coverage.go).
package lsp
