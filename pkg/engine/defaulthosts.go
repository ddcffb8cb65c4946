package engine

import (
	"kitsoki/pkg/host"
)

// defaultHosts is the registry a session uses when SessionOptions.Hosts is
// nil: every built-in handler of pkg/host.
func defaultHosts() *host.Registry { return host.Builtins(host.Options{}) }

// PrepareHosts adds pkg/host's run-store handlers (jobs answer, inbox add)
// to reg without replacing a handler already registered under the name.
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
