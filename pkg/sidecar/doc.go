// Package sidecar owns supervising one llama-server process ([Sidecar]): a
// free loopback port, the /health gate, restart after a crash and stop on
// every path, with kitsoki's process policy from internal/proc. It must not
// download anything (pkg/fetch does) nor speak the chat or embeddings API
// (pkg/agent does).
//
// In full, it supervises one llama-server process: it picks a free
// loopback port, spawns the server with the release directory first on
// LD_LIBRARY_PATH, gates on GET /health (503 while the model loads, 200
// ready), keeps the last 8 KiB of the server's output for error messages,
// restarts a crashed server on the next Ensure, and stops it with SIGTERM
// then SIGKILL after a grace period — the whole process group, and on
// Linux the server also dies with kitsoki (parent-death signal).
//
// One Sidecar serves one declaration and is shared by its calls; every
// method is safe for concurrent use.
//
// What it must not do: download anything (pkg/fetch does), speak the chat
// or embeddings API beyond /health (pkg/agent's local_llm does), or
// outlive its owner: every process it starts is stopped on every path.
package sidecar
