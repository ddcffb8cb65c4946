package agent

import (
	"fmt"
	"strconv"
)

// UnparsedDelays says, for each episode whose delay: is written but is no
// duration (2, 5000000000, soon, 1x, "", -1s), that it answers at once and
// how to write it: both engines drop such a delay (conformance
// cassette-delay-unparsed). run prints them for --cassette and
// --host-cassette, files validate cannot see: run takes their paths on
// its command line, and no story or fixture names them.
func (c *Cassette) UnparsedDelays() []string {
	var out []string
	for i, ep := range c.Episodes {
		if ep.badDelay == nil {
			continue
		}
		name := fmt.Sprintf("episodes[%d]", i)
		if ep.ID != "" {
			name = fmt.Sprintf("episode %q", ep.ID)
		}
		out = append(out, fmt.Sprintf("%s: delay %q is no duration: the episode answers at once on both engines (a delay that does not parse is dropped); %s", name, *ep.badDelay, DelayFix(*ep.badDelay)))
	}
	return out
}

// DelayFix says how to write the delay text meant, for a delay: that is
// no duration.
func DelayFix(text string) string {
	f, err := strconv.ParseFloat(text, 64)
	switch {
	case err == nil && f >= 0:
		return "a duration carries its unit (ms, s, m, h, d): write " + text + "s for " + text + " seconds, or drop delay:"
	case err == nil:
		return "a delay is never negative: write a duration such as 2s, or drop delay:"
	}
	return "write a duration such as 2s, 500ms or 1.5d, or drop delay:"
}
