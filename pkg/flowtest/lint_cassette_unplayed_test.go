package flowtest

import "testing"

// TestLintCassetteUnplayed: with strict_cassette_coverage, an episode
// whose match.call names no invoke's id, or whose match.handler names an
// agent alias, is never played, so the fixture fails at its end on both
// engines (conformance cassette-strict-unnamed-episode,
// cassette-alias-episode-unplayed); without strict coverage an unplayed
// episode fails nothing.
func TestLintCassetteUnplayed(t *testing.T) {
	const zz = `strict_cassette_coverage: episode 1 (id "", `
	lintGolden(t, "../engine/testdata/conformance/cassette-strict-unnamed-episode", map[string]string{
		"f.yaml": zz, "g.yaml": zz,
	}, ruleCassetteUnplayed)
	lintGolden(t, "../engine/testdata/conformance/cassette-alias-episode-unplayed", map[string]string{
		"alone.yaml": "", "both.yaml": "", "job.yaml": "", "kid.yaml": "",
		"strict.yaml": `match.handler "agent.x" names an agent alias`,
	}, ruleCassetteUnplayed)
}
