// Package cmd owns kitsoki's cobra commands built by [newRootFor]: their flags,
// output formatting and exit codes (0 success, 1 the command's finding, 2
// usage or environment error). It must not decide anything about stories,
// agents, traces or downloads: every such decision lives in pkg/.
package cmd
