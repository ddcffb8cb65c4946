package cmd

import (
	"context"

	"kitsoki/pkg/host"
)

// addedHostsKey is the context key of host handlers added over the
// built-ins of kitsoki run's and kitsoki test's host registries
// (compose.ResolveOptions.Hosts). kitsoki's main adds none: only cmd's
// tests do, running their own binary as kitsoki with a handler that
// panics (handler_panic_test.go).
type addedHostsKey struct{}

// addedHosts are the handlers ctx carries (nil: none).
func addedHosts(ctx context.Context) map[string]host.Handler {
	h, _ := ctx.Value(addedHostsKey{}).(map[string]host.Handler)
	return h
}
