package plugin

import (
	"cmp"
	"errors"

	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// HostRegistry builds a run's host registry: the built-in handlers (with
// host.agent.search over the embedder st's routing.embedding declares,
// unless opts.Search already has one), then the enabled host providers.
// Close the returned closer when the run ends: it stops provider
// processes and a managed embedding sidecar. The warnings are provider
// claims that were ignored. The engine checks the story's calls against it when it compiles.
func (a *Assembly) HostRegistry(st *story.Story, opts host.Options, embed localllm.EmbedderConfig) (*host.Registry, func() error, []Warning, error) {
	closeEmbed := func() error { return nil }
	if opts.Search.Embedder == nil {
		so, c, err := storyEmbedder(st, embed)
		if err != nil {
			return nil, nil, nil, err
		}
		if so.Embedder != nil {
			so.CacheDir = cmp.Or(opts.Search.CacheDir, so.CacheDir)
			opts.Search = so
		}
		closeEmbed = c
	}
	reg := host.Builtins(opts)
	closeProviders, warns := a.RegisterHostProviders(reg)
	return reg, func() error { return errors.Join(closeProviders(), closeEmbed()) }, warns, nil
}
