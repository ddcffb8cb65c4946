// Command fakeclaude owns a stand-in for Anthropic's claude CLI for pkg/eval's
// tests, answering per --model so a candidate's model is seen to reach the
// CLI. It must not be built or run outside tests.
//
// In full, it is a stand-in for Anthropic's `claude` CLI (which
// cannot run here), built by eval's tests so the builtin.claude_cli
// transport runs a real process. It speaks only what that transport uses:
// `claude -p --output-format json [--model M]`, the prompt on stdin, one
// result envelope on stdout. Its answer depends on --model, which is how
// the tests see that a candidate's model reached the CLI:
//
//	opus    right (accept when the prompt's merge sha is set, else refine);
//	        total_cost_usd 0.01
//	haiku   always accept; total_cost_usd 0.0002
//	other   an error envelope (is_error)
package main
