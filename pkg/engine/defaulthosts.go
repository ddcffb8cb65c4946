package engine

import (
	"kitsoki/pkg/host"
)

// defaultHosts is the registry a session uses when SessionOptions.Hosts is
// nil: every built-in handler of pkg/host (host.run, host.inbox.add,
// host.jobs.answer_clarification, host.starlark.run, ...).
func defaultHosts() *host.Registry { return host.Builtins(host.Options{}) }

// PrepareHosts readies a run's registry (pkg/host's builtins plus any
// providers): it adds pkg/host's run-store handlers
// (host.jobs.answer_clarification and host.inbox.add, which work against
// the run's own job store and inbox) to reg, without replacing a handler
// already registered under the same name (a stub, a provider).
func PrepareHosts(reg *host.Registry) {
	builtins := host.Builtins(host.Options{})
	for _, name := range []string{host.HandlerJobsAnswer, host.HandlerInboxAdd} {
		if _, served, _, ok := reg.Lookup(name); ok && served == name {
			continue
		}
		if h, _, _, ok := builtins.Lookup(name); ok {
			reg.Register(name, h)
		}
	}
}
