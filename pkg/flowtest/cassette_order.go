package flowtest

import "path/filepath"

// cassetteTurns orders the fixtures that may append to one host cassette
// (host_bindings with a host_cassette: a miss is recorded under
// record_mode new_episodes), or rewrite one starlark_http_cassette, as
// upstream's sequential run does: the
// returned wait of fixture i is closed when the previous such fixture of
// its cassette has ended (nil when there is none), and done[i] is closed
// when fixture i ends (nil for a fixture that records nothing). A
// later document then reads the episodes the earlier ones appended
// (conformance cassette-miss-real-handler), whatever -j says.
func cassetteTurns(fxs []*Fixture) (wait, done []chan struct{}) {
	wait, done = make([]chan struct{}, len(fxs)), make([]chan struct{}, len(fxs))
	last := map[string]chan struct{}{}
	for i, fx := range fxs {
		var key string
		switch {
		case fx.StarlarkHTTPCassette != "":
			// a recording one is flushed when the fixture ends
			key = filepath.Clean(filepath.Join(filepath.Dir(fx.File), fx.StarlarkHTTPCassette))
		case len(fx.HostBindings) > 0 && fx.HostCassette != "":
			key = filepath.Clean(filepath.Join(filepath.Dir(fx.File), fx.HostCassette))
		default:
			continue
		}
		wait[i] = last[key]
		done[i] = make(chan struct{})
		last[key] = done[i]
	}
	return wait, done
}
