package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// realAnswer is what the fixture knows of the answer to call e under
// host_bindings when no stub of its exact name serves it, so that the
// real handler (or a stub by a shorter prefix) answers: nothing, unless
// the answer cannot matter to the path. A foreground call that binds
// nothing and names no on_error lands the turn normally whether it
// succeeds or fails (story-runtime §2.3; conformance lint-iface-real:
// iface.transport.post bound to host.artifacts_dir, a real handler with
// no such op, or to no handler at all, on entering a state the fixture
// then rests in). It is known, binding nothing, with last_error and
// host_error left uncertain (err). Not so for an agent or background
// call, a fixture with a host_cassette, a handler that may ask for a
// clarification, post to the inbox or answer for a job (host.agent.*,
// host.inbox.*, host.jobs.*), a stub with a delay or a clarification,
// or an iface an import may rebind.
func (l *fixtureLint) realAnswer(e *story.Effect) stubAnswer {
	fx := l.fx
	if fx.HostCassette != "" || e.Background() || e.Agent() != "" || len(e.Bind()) > 0 || e.OnError() != "" {
		return stubAnswer{}
	}
	name, ok := l.boundHandler(e.Invoke)
	if !ok || name == "host" || slices.ContainsFunc([]string{"host.agent", "host.inbox", "host.jobs"}, func(p string) bool {
		return name == p || strings.HasPrefix(name, p+".")
	}) {
		return stubAnswer{}
	}
	if s, _ := stubFor(fx.HostHandlers, name); s != nil && (s.Delay != 0 || s.DelayErr != "" || s.RequestClarification != "") {
		return stubAnswer{}
	}
	return stubAnswer{known: true, err: "the real handler's answer"}
}

// boundTo reports whether the fixture's host_bindings point an iface at
// the handler name, or at one below or above it: the story's iface calls
// then dispatch there, and a stub of that name serves them (conformance
// lint-iface-real d: a stub host.artifacts_dir under transport:
// host.artifacts_dir is no unused stub).
func boundTo(fx *Fixture, name string) bool {
	return slices.ContainsFunc(fx.HostBindings, func(kv KV) bool {
		to, ok := kv.Value.(string)
		return ok && to != "" && (to == name || strings.HasPrefix(to, name+".") || strings.HasPrefix(name, to+"."))
	})
}

// boundHandler is the name call invoke dispatches as under the fixture's
// host_bindings: iface.<name>.<op> is <binding>.<op>, the binding the
// fixture's (a string) or else the iface's default:; ok is false when an
// import may rebind it, or it names no iface the story declares.
func (l *fixtureLint) boundHandler(invoke string) (string, bool) {
	ix := l.ix
	if !strings.HasPrefix(invoke, "iface.") {
		return invoke, !story.IsTemplated(invoke)
	}
	if len(ix.source.Imports) > 0 || ix.story != ix.source {
		return "", false
	}
	iface, op, _ := story.IfaceCall(invoke)
	hi := ix.story.HostInterfaces[iface]
	if hi == nil {
		return "", false
	}
	to := hi.Default
	for _, kv := range l.fx.HostBindings {
		if v, isString := kv.Value.(string); isString && kv.Key == iface {
			to = v
		}
	}
	if to == "" || story.IsTemplated(to) || story.IsTemplated(op) {
		return "", false
	}
	if op == "" {
		return to, true
	}
	return to + "." + op, true
}
