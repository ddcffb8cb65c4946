// Package lsptest owns a real LSP client for tests (sourcegraph/jsonrpc2,
// Content-Length framing) that records every publishDiagnostics notification.
// It must not be imported outside tests.
//
// In full, it is a real LSP client for tests: sourcegraph/jsonrpc2 with
// the Content-Length framing editors use, recording every
// publishDiagnostics notification. It drives kitsoki lsp in process or as a
// child process over stdio, and must not be imported outside tests.
package lsptest
