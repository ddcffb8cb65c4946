// Command fakeclaude owns a stand-in for Anthropic's claude CLI for pkg/eval's
// tests, answering per --model so a candidate's model is seen to reach the
// CLI. It must not be built or run outside tests.
//
// It speaks only what builtin.claude_cli uses: `claude -p --output-format json
// [--model M]`, the prompt on stdin, one result envelope on stdout:
//
//	opus    right (accept when the prompt's merge sha is set, else refine);
//	        total_cost_usd 0.01
//	haiku   always accept; total_cost_usd 0.0002
//	other   an error envelope (is_error)
package main
