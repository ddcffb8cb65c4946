// Package lsp owns kitsoki's language server ([Server]): the checks of kitsoki
// validate on unsaved buffers, and navigation (definition, hover, completion,
// symbols, quick fixes). It must not run a story, call an agent or write a
// story file: it reads through pkg/story and answers the editor.
//
// In full, it is kitsoki's language server (kitsoki lsp): the checks of
// kitsoki validate on unsaved editor buffers, published for every file of a
// story, plus navigation of a story — definition, hover, completion,
// document symbols and the "did you mean" fixes as code actions.
//
// It speaks LSP through github.com/tliron/glsp's protocol types and
// sourcegraph/jsonrpc2's framing (no framing written here), loads stories
// through pkg/story with the open buffers as an overlay, and must never
// write a file, run a story or dispatch an agent call.
package lsp
