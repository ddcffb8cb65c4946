package story

import "strings"

// Embedding is routing.embedding's block, or nil when the story declares
// no embedder (neither endpoint: nor model: set): host.agent.search then
// answers every call with a domain error.
func (r *Routing) Embedding() map[string]any {
	if r == nil {
		return nil
	}
	raw, ok := r.Raw["embedding"].(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range []string{"endpoint", "model"} {
		if s, _ := raw[k].(string); strings.TrimSpace(s) != "" {
			return raw
		}
	}
	return nil
}
