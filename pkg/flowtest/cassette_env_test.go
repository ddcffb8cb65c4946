package flowtest

import (
	"testing"
)

// KITSOKI_CASSETTE_RECORD replaces a flow fixture's host cassette
// record_mode and KITSOKI_CASSETTE_STRICT=1|true refuses any mode but
// none, in upstream's words (trace-eval.md §B.2; upstream ends the whole
// run there, ours fails the fixture naming host_cassette).
func TestCassetteEnv(t *testing.T) {
	const fixture = `test_kind: flow
initial_state: a
host_cassette: c.yaml
turns:
  - intent: { name: ship }
`
	cassette := func(mode string) map[string]string {
		return map[string]string{"c.yaml": "kind: host_cassette\nrecord_mode: " + mode + "\nepisodes:\n  - id: a\n    match: {handler: host.gitx.push}\n    response: {data: {ok: x}}\n"}
	}
	run := func(t *testing.T, mode, record, strict string) *Result {
		t.Helper()
		t.Setenv("KITSOKI_CASSETTE_RECORD", record)
		t.Setenv("KITSOKI_CASSETTE_STRICT", strict)
		rs := runFlow(t, fixture, cassette(mode), Options{Jobs: 1})
		if len(rs) != 1 {
			t.Fatalf("got %d results", len(rs))
		}
		return rs[0]
	}
	t.Run("strict refuses new_episodes", func(t *testing.T) {
		wantFail(t, run(t, "new_episodes", "", "1"), `host_cassette: KITSOKI_CASSETTE_STRICT=1 but cassette record mode is "new_episodes"`)
	})
	t.Run("record replaces the mode strict sees", func(t *testing.T) {
		wantFail(t, run(t, "none", "new_episodes", "true"), `KITSOKI_CASSETTE_STRICT=1 but cassette record mode is "new_episodes"`)
		wantPass(t, run(t, "new_episodes", "none", "1"))
	})
	t.Run("an invalid record mode is refused", func(t *testing.T) {
		wantFail(t, run(t, "none", "bogus", ""), `host_cassette: record_mode "bogus" is not supported; valid values are "none" or "new_episodes"`)
	})
	t.Run("strict other than 1 or true is off", func(t *testing.T) {
		wantPass(t, run(t, "new_episodes", "", "yes"))
	})
}
