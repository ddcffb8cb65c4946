// Package sidecar owns supervising one llama-server process ([Sidecar]): a
// free loopback port, the /health gate, restart after a crash and stop on
// every path, with kitsoki's process policy from internal/proc. It must not
// download anything (pkg/fetch does) nor speak the chat or embeddings API
// (pkg/agent does).
//
// [Start] spawns the server with [Config].LibDir first on LD_LIBRARY_PATH
// (Linux) and returns once /health turns from 503 (model loading) to 200.
// The last 8 KiB of the server's output go into its error messages (a
// failed start reads it once the server is stopped, so none is missing);
// [Sidecar.Ensure] restarts a crashed server; [Sidecar.Stop] sends SIGTERM,
// then SIGKILL after a grace, to the whole process group. One Sidecar serves
// one declaration, shared by its calls; every method is safe for concurrent
// use.
package sidecar
