// Command echoagent owns the subprocess test plugin pkg/agent's tests build
// and run for real, answering with the conformance reference submission or the
// fault a request selects. It must not be built or run outside tests.
//
// It speaks JSON-RPC 2.0, one compact message per line on stdin/stdout,
// method agent.ask. The fault is the request's with.fault, else the -fault
// flag (default $KITSOKI_TEST_FAULT) for every request:
//
//	crash           write ECHO_STDERR (or a default line) to stderr, exit 3
//	partial         write half a frame with no newline, exit 1
//	garbage         print a log line on stdout instead of an answer
//	hang            never answer
//	late            answer 5 s after the request's deadline
//	slow:<ms>       answer after <ms> milliseconds
//	rpc_error       answer with a JSON-RPC error
//	wrong_id        answer with a different id
//	no_result       answer with neither result nor error
//	grandchild      start a sleeping copy of itself (ECHO_ROLE=sleeper, same
//	                process group), write its pid to with.pidfile, never answer
//	stdout_unsolicited  answer, then write a second, unrequested line
//	echo_request    answer {"line": <the request line exactly as read>}
//	flood_stdout    write 'x' to stdout forever, never a newline
//	flood_stderr:<MiB>  write <MiB> MiB to stderr with no newline, then answer
//	dup_id          answer twice, both replies with the request's id
//	dup_bare        answer twice, neither reply with an id
//	stale_first     reply to id-1 with {"stale":true}, then answer
//
// plus the answer-level faults of package echo. A request whose
// with.received names a path creates that file as soon as it is read, before
// its fault plays out (tests wait for it instead of sleeping). Normal
// answers carry meta.pid, the plugin's process id. Other environment
// switches:
//
//	ECHO_STDERR            a line written to stderr on start-up and on crash
//	ECHO_IGNORE_SIGTERM=1  ignore SIGTERM and keep running after stdin closes
//	ECHO_COST_USD=x        report meta.cost_usd x with every answer
package main
