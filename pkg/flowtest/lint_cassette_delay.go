package flowtest

import (
	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/agent"
)

// episodeDelays warns at each episode of the fixture's host_cassette
// (doc, printed as name) whose delay: is a scalar that is no duration (2,
// 5000000000, soon, 1x, "", -1s): both engines drop it, so the episode
// answers at once and a background job it answers lands on the next
// advance (conformance cassette-delay-unparsed). null is no delay as
// written; a delay that is no scalar stops the load (the run says so).
func (l *fixtureLint) episodeDelays(doc *yaml.Node, name string) {
	for _, ep := range listAt(doc, "episodes") {
		d := nodeAt(ep, "delay")
		if d.Kind != yaml.ScalarNode || d.ShortTag() == "!!null" {
			continue
		}
		if _, ok := agent.EpisodeDelay(d.Value); ok {
			continue
		}
		l.cassetteWarn(name, d, ruleCassetteDelay,
			"delay %q is no duration: the episode answers at once on both engines (a delay that does not parse is dropped), so a background job it answers lands on the next advance_clock; %s", d.Value, agent.DelayFix(d.Value))
	}
}
