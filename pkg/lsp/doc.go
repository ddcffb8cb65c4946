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
//
// It serves only inside its workspace roots (roots.go: [Options].Root, else
// the client's initializationOptions root, workspace folders or rootUri):
// a document outside them is never read, checked or published for, and a
// client naming no root gets nothing. A story is loaded under its project
// root (the nearest .git or .kitsoki/ above it, when that lies inside the
// workspace root, else the workspace root), so what it names follows
// pkg/story's confinement; navigation never points outside it either.
//
// Completion reads the buffer as typed, which may not parse yet: block keys
// by indentation (keyPath), flow collections open before the cursor
// ({target: |}, on: {|}, emit: [a, |]) with flowctx.go's scanner, so flow
// style completes states and intents wherever block style does.
package lsp
