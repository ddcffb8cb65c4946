package plugin

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// HostRegistry builds a run's host registry: the built-in handlers (with
// host.agent.search over the embedder st's routing.embedding declares,
// unless opts.Search already has one), then the enabled host providers.
// A built-in the profile disables is replaced by its refusal
// ([Assembly.DisabledHost]), so no name that reaches it runs it. Close the returned closer when the run ends: it stops provider
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
	for _, name := range reg.Names() {
		if h, off := a.DisabledHost(name); off {
			info, _ := reg.Info(name)
			reg.RegisterInfo(name, h, info)
		}
	}
	closeProviders, warns := a.RegisterHostProviders(reg)
	return reg, func() error { return errors.Join(closeProviders(), closeEmbed()) }, warns, nil
}

// DisabledHost is the handler standing in for the built-in host handler
// name when the assembly disables it (false when it does not): every call
// fails with the operator's refusal, an infrastructure failure, so the
// effect takes its on_error path. The host/pre-call gate refuses host.run
// by the name a story writes; this refuses whatever name the registry
// serves by it: host.run.x (the longest-prefix lookup) or an iface bound
// to it.
func (a *Assembly) DisabledHost(name string) (host.Handler, bool) {
	reason, off := a.hostDisabled(name)
	if !off {
		return nil, false
	}
	return host.HandlerFunc(func(context.Context, *host.Call) (host.Result, error) {
		return host.Result{}, fmt.Errorf("%s is disabled in the plugin assembly (%s)", name, reason)
	}), true
}
