// Package localllme2e owns only tests: builtin.local_llm end to end through
// `kitsoki run` and the engine, from an empty cache to an answer, and its
// fallback to agent.claude. It must not hold code other packages use; it lives
// apart so that pkg/agent's own tests do not depend on pkg/engine and cmd.
//
// In full, it holds only tests: builtin.local_llm end to end through
// `kitsoki run` and the engine, from an empty cache (download, verify,
// extract, spawn, health, answer), a warm run, and the validation-reject
// fallback to agent.claude. They live apart from pkg/agent so that the
// agent package's own tests do not depend on pkg/engine and cmd.
package localllme2e
