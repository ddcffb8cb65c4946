// Package lsptest owns a real LSP client for tests (sourcegraph/jsonrpc2,
// Content-Length framing) that records every publishDiagnostics notification.
// It must not be imported outside tests.
//
// [Connect] drives kitsoki lsp over any stream: in process through pipes, or
// a child process over stdio.
package lsptest
