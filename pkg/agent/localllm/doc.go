// Package localllm owns the builtin.local_llm agent transport ([New], an
// agent.Builder) and the local embedder ([Embedder]): OpenAI-compatible chat
// and embedding calls to a llama.cpp llama-server, either one the user runs
// (endpoint:, never fetched, spawned or stopped) or a managed one whose
// pinned release and weights it fetches through pkg/fetch and whose process
// it supervises through pkg/sidecar. It must not be imported by pkg/agent
// (the contract package stays free of fetch and sidecar): the composition
// root (pkg/compose) hands [New] to every registry through
// agent.RegistryOptions.Builders.
//
// Layout: transport.go (chat), model.go (the model an endpoint-mode request
// names), server.go (endpoint and managed servers), embed.go (embeddings).
package localllm
