// Command fakeclaude owns a STAND-IN for Anthropic's claude CLI (which cannot
// run on test machines), mimicking only the print mode builtin.claude_cli
// relies on. It must not be built or run outside tests.
//
// It takes print mode (-p) with --output-format json, reads the prompt from
// stdin and writes one JSON result envelope on stdout shaped like the real
// CLI's:
//
//	{"type":"result","subtype":"success","is_error":false,"duration_ms":..,
//	 "duration_api_ms":..,"num_turns":1,"result":"<text>","session_id":"..",
//	 "total_cost_usd":0.0123,"usage":{"input_tokens":..,"cache_creation_input_tokens":..,
//	 "cache_read_input_tokens":..,"output_tokens":..,"server_tool_use":{..},
//	 "service_tier":"standard"},"modelUsage":{"<model>":{..}},"permission_denials":[],"uuid":".."}
//
// FAKE_CLAUDE_ANSWER is the JSON answer (default {"answer":"stand-in"}).
// FAKE_CLAUDE_MODE shapes the output:
//
//	fenced (default)  result = prose + a ```json fenced block holding the answer
//	plain             result = the answer as bare text
//	structured        result = prose; the answer in "structured_output"
//	is_error          an error envelope (is_error true), exit status 1
//	crash             a line on stderr, nothing on stdout, exit status 2
//	not_json          plain text on stdout, exit status 0
//	hang              never answer
//
// FAKE_CLAUDE_MODEL_USAGE, when set, is the envelope's modelUsage as raw
// JSON (a costly one, for the envelope's cost check).
//
// Its argv is read by internal/testing/claudeargs, as strictly as any
// option parser might: an unknown option, or a value after a flag that
// starts with "-", is an error on stderr and exit status 1.
//
// FAKE_CLAUDE_RECORD, when set, is a file that receives
// {"args":[...],"opts":{...},"stdin":"...","env":[...]} (opts: the options
// as parsed, null when argv was refused) so tests can assert the argv and
// the prompt the transport sent.
package main
