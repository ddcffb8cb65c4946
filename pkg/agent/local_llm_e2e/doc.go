// Package localllme2e owns only tests: builtin.local_llm end to end through
// `kitsoki run` and the engine, from an empty cache to an answer, and its
// fallback to agent.claude. It must not hold code other packages use; it lives
// apart so that pkg/agent's own tests do not depend on pkg/engine and cmd.
//
// The cold run covers download, verify, extract, spawn, health and answer; a
// warm run then reuses the cache.
package localllme2e
