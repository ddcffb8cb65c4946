// Command echoagent owns the subprocess test plugin pkg/agent's tests build
// and run for real, answering with the conformance reference submission or the
// fault a request selects. It must not be built or run outside tests.
//
// In full, it is the subprocess plugin kitsoki's tests build with
// `go build` and run for real: JSON-RPC 2.0, one compact message per line on
// stdin/stdout, method agent.ask. It answers with the conformance reference
// submission (see package echo) unless the request's with.fault, or the
// environment variable ECHO_FAULT for every request, selects a fault:
//
//	crash           write ECHO_STDERR (or a default line) to stderr, exit 3
//	partial         write half a frame with no newline, exit 1
//	garbage         print a log line on stdout instead of an answer
//	hang            never answer
//	late            answer 300 ms after the request's deadline
//	slow:<ms>       answer after <ms> milliseconds
//	rpc_error       answer with a JSON-RPC error
//	wrong_id        answer with a different id
//	no_result       answer with neither result nor error
//	grandchild      start a child process (same process group), write its pid
//	                to with.pidfile, then never answer
//	stdout_unsolicited  answer, then write a second, unrequested line
//	echo_request    answer {"line": <the request line exactly as read>}
//
// Normal answers carry meta.pid, the plugin's process id.
//
// plus the answer-level faults of package echo. Other environment switches:
//
//	ECHO_STDERR            a line written to stderr on start-up and on crash
//	ECHO_IGNORE_SIGTERM=1  ignore SIGTERM and keep running after stdin closes
//	ECHO_COST_USD=x        report meta.cost_usd x with every answer
package main
