// Package claudeargs owns the argv parser the claude CLI STAND-INs share
// (agentplugins/fakeclaude, evalplugins/fakeclaude, claudestandin): the
// options builtin.claude_cli passes, read as strictly as any option parser
// might. It must not be used outside tests.
//
// A value is taken from --flag=VALUE, or from the next argument only when
// that does not start with "-": a parser that reads "-x" after a flag as
// the next option is the one that turns story text into an option, so the
// stand-ins refuse what builtin.claude_cli must never send.
package claudeargs
