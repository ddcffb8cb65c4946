package plugin

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// localEmbedder adapts pkg/agent/localllm's Embedder to the host.Embedder
// that host.agent.search uses (the host package does not import the agent
// transports).
type localEmbedder struct{ e *localllm.Embedder }

func (l localEmbedder) Model() string {
	if d := l.e.Dim(); d > 0 {
		return fmt.Sprintf("%s@%d", l.e.Model(), d)
	}
	return l.e.Model()
}

func (l localEmbedder) Embed(ctx context.Context, texts []string, query bool) ([][]float32, error) {
	role := localllm.EmbedDocument
	if query {
		role = localllm.EmbedQuery
	}
	return l.e.Embed(ctx, texts, role)
}

// storyEmbedder builds the embedder the story's routing.embedding block
// declares (endpoint: attach to a running llama-server --embeddings;
// model: alone: the managed embedding sidecar, started on the first
// search) and the search options around it (cache_dir, relative to the
// story directory; default <workdir>/.kitsoki-embed-cache). It returns
// zero options and a nil closer when the story declares no embedder.
// Close the closer when the run ends (it stops a managed sidecar).
func storyEmbedder(st *story.Story, cfg localllm.EmbedderConfig) (host.SearchOptions, func() error, error) {
	noop := func() error { return nil }
	if st == nil || st.Routing.Embedding() == nil {
		return host.SearchOptions{}, noop, nil
	}
	raw := st.Routing.Embedding()
	str := func(k string) string { s, _ := raw[k].(string); return strings.TrimSpace(s) }
	cfg.Endpoint = cmp.Or(cfg.Endpoint, str("endpoint"))
	cfg.Model = cmp.Or(cfg.Model, str("model"))
	e, err := localllm.NewEmbedder(cfg)
	if err != nil {
		return host.SearchOptions{}, noop, fmt.Errorf("routing.embedding: %w", err)
	}
	o := host.SearchOptions{Embedder: localEmbedder{e}}
	if d := str("cache_dir"); d != "" {
		if !filepath.IsAbs(d) {
			d = filepath.Join(st.Dir, d)
		}
		o.CacheDir = d
	}
	return o, e.Close, nil
}
