package compose

import (
	"slices"
	"strings"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
)

// Foresee tells, without playing anything, the answer Replay gives a call
// to handler whatever the cassette played before (validate's fixture
// lint follows a turn's calls with it): the first episode that may match
// certainly matches and replays any number of times (replay: any), and
// every episode before it certainly does not match. known reports which
// keys of args hold what the call will carry; a phase: match is never
// certain. A call no episode can match is Replay's cassette miss, an
// infra error (failure). out.Delay is the episode's delay, which a
// background job waits on the fixture's clock. ok is false when the answer is not certain, or
// the cassette does not serve handler.
func (hc *HostCassette) Foresee(h string, args map[string]any, known func(key string) bool) (out engine.Replayed, failure string, ok bool) {
	if !hc.Handles(h) {
		return out, "", false
	}
	handler, args := hc.routed(h, args)
	if _, op, _ := hc.route(h); op != "" {
		given := known
		known = func(k string) bool { return k == "op" || given(k) }
	}
	for _, ep := range hc.c.Episodes {
		match, certain := hc.foreseeMatch(ep, handler, args, known)
		if !certain {
			return out, "", false
		}
		if !match {
			continue
		}
		if ep.Replay != "any" {
			return out, "", false // it may have been played already
		}
		if err := answered(ep, &out); err != nil {
			return engine.Replayed{Delay: ep.Delay}, err.Error(), true
		}
		out.Delay = ep.Delay
		return out, "", true
	}
	if hc.recording {
		return out, "cassette: record mode without a fallback handler", true
	}
	return out, "cassette miss", true
}

// foreseeMatch is whether ep matches the call, and whether that is
// certain: one key certainly differing decides it, else every key must be
// known.
func (hc *HostCassette) foreseeMatch(ep *agent.Episode, handler string, args map[string]any, known func(string) bool) (match, certain bool) {
	certain = true
	for k, want := range ep.Match {
		if !foreseeable(k, known) {
			certain = false
			continue
		}
		got, _ := hc.callKey(k, handler, "", args)
		if !agent.ValuesEqual(got, want) {
			return false, true
		}
	}
	return certain, certain
}

// foreseeable reports whether match key k is known before the call.
func foreseeable(k string, known func(string) bool) bool {
	switch k {
	case "handler":
		return true
	case "phase":
		return false
	case "schema_name":
		return known("schema")
	}
	return known(k)
}

// AliasHandlers lists, sorted, the agent aliases (agent.<name>) its
// episodes' match.handler name: no call dispatches to those, agent calls
// being host.agent.<verb> (conformance cassette-alias-episode-unplayed).
func (hc *HostCassette) AliasHandlers() []string {
	var out []string
	for h := range hc.handlers {
		if strings.HasPrefix(h, "agent.") {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// UnparsedDelays is the cassette's episodes whose delay: is no duration
// (agent.Cassette.UnparsedDelays), for run to warn at.
func (hc *HostCassette) UnparsedDelays() []string { return hc.c.UnparsedDelays() }
