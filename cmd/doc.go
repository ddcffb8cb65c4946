// Package cmd wires kitsoki's cobra commands to the pkg/ packages.
//
// It owns flags, output formatting and exit codes, nothing else: every
// decision about stories, agents, traces or downloads lives in pkg/.
// Exit codes: 0 success, 1 the command's finding, 2 usage or environment error.
package cmd
