// Package localllme2e holds only tests: builtin.local_llm end to end through
// `kitsoki run` and the engine, from an empty cache (download, verify,
// extract, spawn, health, answer), a warm run, and the validation-reject
// fallback to agent.claude. They live apart from pkg/agent so that the
// agent package's own tests do not depend on pkg/engine and cmd.
package localllme2e
