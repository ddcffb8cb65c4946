// Package leak owns the hostile half of kitsoki's secret tests: a secret in
// every form it can take in output ([Forms]) and the answer a leaking
// plugin gives per channel ([For]). It must not be imported outside tests.
//
// The subprocess plugin (internal/testing/leakyplugin) and the tests' MCP
// server share it.
package leak
