package flowtest

import (
	"time"

	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/story"
)

// A fixture's host_cassette answers a call as the rig replays it
// (conformance lint-cassette-answer, probed on the existing engine):
// the first episode still to play whose every match: key equals the
// call's (handler; call, the effect's id; any other with: key) answers,
// its response's data binding, a domain error's data too, an
// infra_error binding nothing; no episode matching is a cassette miss,
// and a handler no episode names has no handler at all: both infra
// errors. The lint follows only answers that do not depend on what
// earlier turns played: the episode that answers replays any number of
// times (replay: any), and every one before it certainly does not match.
// A key whose with: value is templated, or a phase: key, leaves the
// answer uncertain. An episode naming an agent alias answers nothing
// (conformance cassette-alias-episode-unplayed).

// fixtureCassette is a fixture's host cassette, read once.
type fixtureCassette struct {
	fx *Fixture
	hc *compose.HostCassette // nil: unread, or unreadable
}

// hostCassette is the fixture's host cassette, nil when it cannot be read
// (the run fails there, and says so).
func (l *fixtureLint) hostCassette() *compose.HostCassette {
	fx := l.fx
	if l.cassette.fx == fx {
		return l.cassette.hc
	}
	l.cassette = fixtureCassette{fx: fx}
	root := namedRoot(l.root, fx.File)
	full, err := resolveNamed(root, fx.File, "host_cassette", fx.HostCassette)
	if err != nil {
		return nil
	}
	r := safefile.NewRoot(root)
	defer r.Close()
	if hc, err := compose.LoadFlowHostCassette(r, full, l.root.Patterns()); err == nil {
		l.cassette.hc = hc
	}
	return l.cassette.hc
}

// cassetteAnswer is the fixture's cassette's answer to call e, which
// dispatches as name, and the episode's delay (a background job lands
// once the clock passes it, as after a stub's: conformance
// cassette-delay-virtual).
func (l *fixtureLint) cassetteAnswer(e *story.Effect, name string) (stubAnswer, time.Duration) {
	hc := l.hostCassette()
	if hc == nil {
		return stubAnswer{}, 0
	}
	if !hc.Handles(name) {
		return stubAnswer{known: true, err: "no handler"}, 0 // an infra error (flow-format §4.4)
	}
	args, known := map[string]any{}, map[string]bool{}
	for k, v := range e.With {
		args[k], known[k] = v, !hasTemplate(v)
	}
	if id := e.ID(); id != "" {
		args["call"], known["call"] = id, !story.IsTemplated(id)
	}
	nargs, _ := jsonvalue.Normalize(args).(map[string]any)
	rep, failure, ok := hc.Foresee(name, nargs, func(k string) bool {
		v, in := known[k]
		return v || !in // a key with: lacks is absent from the call too
	})
	if !ok {
		return stubAnswer{}, 0
	}
	if failure != "" {
		return stubAnswer{known: true, err: failure}, rep.Delay
	}
	return stubAnswer{data: rep.Data, err: rep.Error, known: true, binds: true}, rep.Delay
}

// answerer names, for messages, what answers the fixture's calls.
func (l *fixtureLint) answerer() string {
	if l.fx.HostCassette != "" {
		return "host_cassette"
	}
	return "stubs"
}
