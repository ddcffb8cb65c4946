// Package fastpath owns the one reading of the environment switches that
// turn kitsoki's fast paths off (KITSOKI_YAMLFAST, KITSOKI_YAMLSPLIT,
// KITSOKI_TRACE_FASTDECODE): each package names its own variable and asks
// Off. It holds no state and must not decide anything else.
package fastpath
