package flowtest

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/story"
)

// With strict_cassette_coverage: true, a fixture fails at its end on both
// engines when an episode of its host_cassette was never played
// ("unexpected remaining episodes: [<ids>]", every such episode listed,
// replay: any ones too; conformance cassette-strict-unnamed-episode,
// cassette-alias-episode-unplayed). An episode is certainly never played
// when its match: names what no call of the story carries: a
// match.handler naming an agent alias (agent.<name>: agent calls dispatch
// as host.agent.<verb>), or a handler that neither any invoke of the
// story nor a dotted prefix of one names (a call goes to the episode
// handler its name or a prefix of it names); a match.call naming an id no
// invoke of the story has, where none takes a call key in its with:.
// Nothing is judged where the story's calls are not all known: a
// templated invoke or id, phases or proposals, a story that did not fold,
// a cassette that records; a host.agent.* handler neither (a state's
// agent decides through one).

// unplayedEpisodes warns at the fixture's strict_cassette_coverage when
// an episode of its host cassette is never played.
func (l *fixtureLint) unplayedEpisodes() {
	fx := l.fx
	if !fx.StrictCassetteCoverage || fx.HostCassette == "" {
		return
	}
	calls, known := l.ix.storyCalls(l.fixtureCallNames())
	if !known {
		return
	}
	doc, name := l.cassetteDoc("host_cassette", fx.HostCassette)
	if doc == nil || nodeAt(doc, "record_mode").Value != "" && nodeAt(doc, "record_mode").Value != "none" {
		return
	}
	for i, ep := range listAt(doc, "episodes") {
		why := calls.neverPlays(ep)
		if why == "" {
			continue
		}
		id := nodeAt(ep, "id").Value
		l.warn(fx.valueAt("strict_cassette_coverage"), ruleCassetteUnplayed, "strict_cassette_coverage: episode %d (id %q, %s line %d) is never played: %s; the fixture fails at its end on both engines (unexpected remaining episodes); remove the episode, fix its match:, or drop strict_cassette_coverage",
			i+1, id, name, ep.Line, why)
		return // one finding says the fixture fails
	}
}

// fixtureCallNames is the handler names the fixture's calls dispatch to
// (its host_bindings applied).
func (l *fixtureLint) fixtureCallNames() map[string]bool {
	return l.ix.fixtureCalls(l.fx)
}

// knownCalls is every call the story can make: the handler names and the
// ids its invokes carry.
type knownCalls struct {
	names map[string]bool
	ids   map[string]bool
}

// storyCalls lists the story's calls; known is false when some may be
// missed or named otherwise at run time.
func (ix *storyIndex) storyCalls(names map[string]bool) (calls knownCalls, known bool) {
	if ix.unfolded || ix.story.Phases != nil || len(ix.story.Proposals) > 0 {
		return calls, false
	}
	for h := range names {
		if story.IsTemplated(h) {
			return calls, false
		}
	}
	calls = knownCalls{names: names, ids: map[string]bool{}}
	var w story.EffectWalk
	for p := range w.States(ix.story.AllStates()...) {
		e := p.Effect
		id := e.ID()
		if id == "" && e.With == nil {
			continue
		}
		if _, takesCall := e.With["call"]; takesCall || story.IsTemplated(id) {
			return calls, false
		}
		calls.ids[id] = true
	}
	return calls, true
}

// neverPlays says why episode ep matches no call of the story ("" when
// it may match one).
func (c knownCalls) neverPlays(ep *yaml.Node) string {
	if h := nodeAt(ep, "match", "handler"); h.Kind == yaml.ScalarNode && h.Tag == "!!str" {
		switch {
		case strings.HasPrefix(h.Value, "agent."):
			return fmt.Sprintf("match.handler %q names an agent alias, and agent calls dispatch as host.agent.<verb>", h.Value)
		case strings.HasPrefix(h.Value, "host.agent.") || h.Value == "host.agent":
		case !callsIn(c.names, h.Value):
			return fmt.Sprintf("match.handler %q is no handler the story calls, nor a prefix of one (it calls: %s)", h.Value, listCalls(c.names))
		}
	}
	if id := nodeAt(ep, "match", "call"); id.Kind == yaml.ScalarNode && id.Tag == "!!str" && !c.ids[id.Value] {
		return fmt.Sprintf("match.call %q is the id of no invoke of the story", id.Value)
	}
	return ""
}
