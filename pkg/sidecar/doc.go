// Package sidecar owns supervising one llama-server process ([Sidecar]): a
// free loopback port, the /health gate, restart after a crash and stop on
// every path, with kitsoki's process policy from internal/proc. It must not
// download anything (pkg/fetch does) nor speak the chat or embeddings API
// (pkg/agent does).
//
// [Version] runs a release once (--version) the same way, so that
// fetch-llama-server finds a binary this host cannot load. A configured
// port another program holds is refused before the spawn; a picked port
// another program takes before the server binds it is picked again.
//
// The last 8 KiB of the server's output go into its error messages. One
// Sidecar serves one declaration, shared by its calls; every method is safe
// for concurrent use.
package sidecar
