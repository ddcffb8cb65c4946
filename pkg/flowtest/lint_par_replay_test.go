package flowtest

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// TestLintParReplay: a turn fired at a certain configuration whose move
// the hand model does not follow is run on the engine's own machine,
// and so are the turns after it (lint_par_replay.go): a rejection it
// gives, or a state other than expect_state, is warned at; every
// fixture upstream passes gets no verdict (each golden against its
// upstream.json).
func TestLintParReplay(t *testing.T) {
	// par-emit-leave: a receiver leaving the parallel state puts the
	// target in its region's place (strays), refused GUARD_FAILED or not
	// taken after
	lintGolden(t, "../engine/testdata/conformance/par-emit-leave", map[string]string{
		"a.yaml":              "",
		"b.yaml":              `turns[2]: intent "enter", fired at "top.p#top.outside|top.outside|top.p.ra.a2", is rejected GUARD_FAILED by the engine's own machine`,
		"c.yaml":              "",
		"d.yaml":              "",
		"f.yaml":              `turns[3]: intent "probe", fired at "top.outside", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`,
		"g.yaml":              "",
		"h.yaml":              `turns[3]: intent "probe", fired at "top.outside", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`,
		"i.yaml":              `turns[2]: intent "probe", fired at "top.p#top.outside|top.outside|top.p.ra.a1", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`,
		"j.yaml":              "",
		"k.yaml":              `turns[2]: intent "stay", fired at "top.p#top.outside|top.outside|top.p.ra.a2", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`,
		"ma.yaml":             "",
		"mc.yaml":             "",
		"md.yaml":             `turns[2]: intent "enter", fired at "top.p#top.p.ra.a2|top.p.rc.c1|top.side", is rejected GUARD_FAILED by the engine's own machine`,
		"n_kept_before.yaml":  `turns[1].expect_state: "top.p#top.p.ra.a2|top.p.rb.b1|top.p.rc.c1", but the turn's intent "out", fired at "top.p#top.p.ra.a1|top.p.rb.b1|top.p.rc.c1", rests at "top.p#top.outside|top.outside|top.p.ra.a2" on the engine's own machine`,
		"o_world.yaml":        "",
		"p_legacy_world.yaml": "",
	}, ruleRejected, ruleWrongState)
	// par-emit-root-many: several writes of the root's encoding in one
	// turn, read back as written; par-emit-root-initial: a receiver's root
	// write holding the root's initial encoding (both paths alike)
	const three = "p#p#p.ra.x1|p.rb.x1|p.rc.x1|p.rd.x1|p#p.ra.x1|p.rb.x1|p.rc.x1|p.rd.x1|p#p.ra.x1|p.rb.x1|p.rc.x1|p.rd.x1"
	const twice = "p#p#p.ra.x1|p.rb.x2|p.rc.x2|p#p.ra.x1|p.rb.x2|p.rc.x2"
	const by = " by the engine's own machine"
	many, initial := map[string]string{}, map[string]string{}
	for _, m := range []string{"", "m"} {
		many[m+"a.yaml"] = `turns[2]: intent "mra", fired at "` + three + `|p.ra.x2", is rejected GUARD_FAILED` + by
		many[m+"b.yaml"] = ""
		many[m+"c.yaml"] = `turns[4]: intent "krb", fired at "` + three + `|p.ra.x2", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
		many[m+"d.yaml"] = `turns[3]: intent "mrb", fired at "` + three + `|p.rb.x2", is rejected GUARD_FAILED` + by
		many[m+"e.yaml"] = ""
		many[m+"f.yaml"] = `turns[3]: intent "krb", fired at "p#p.ra.x1|p.rb.x1|p.rc.x1|p.rd.x1", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
		initial[m+"a.yaml"] = `turns[2]: intent "krb", fired at "` + twice + `|p.rb.x1", is rejected GUARD_FAILED` + by
		initial[m+"b.yaml"], initial[m+"d.yaml"], initial[m+"f.yaml"] = "", "", ""
		initial[m+"c.yaml"] = `turns[2]: intent "mrc", fired at "` + twice + `|p.rb.x1", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
		initial[m+"e.yaml"] = `turns[3]: intent "mrb", fired at "` + twice + `|p.rb.x2", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
		initial[m+"g.yaml"] = `turns[2]: intent "nope", fired at "` + twice + `|p.rb.x1", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
	}
	lintGolden(t, "../engine/testdata/conformance/par-emit-root-many", many, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/par-emit-root-initial", initial, ruleRejected, ruleWrongState)
	// emit-place-receivers: which place a receiver's emit reaches after a
	// cross-region move; par-cross-receiver-slot: an emit to a region
	// holding two leaves reaches the one in its own place
	places, slot := map[string]string{}, map[string]string{}
	for _, v := range []string{"false", "true"} {
		for _, n := range []string{"1", "2", "3", "7"} {
			places["v"+n+"_"+v+".yaml"] = ""
		}
		places["v4_"+v+".yaml"] = `turns[2]: intent "g", fired at "p#p.b.b3|p.c.c2|p.c.c3", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
		places["v8_"+v+".yaml"] = `turns[2]: intent "g", fired at "p#p.a.a1|p.b.b3|p.c.c3", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
	}
	for _, o := range []string{"legacy", "orch"} {
		slot["earlier_"+o+".yaml"] = `turns[3]: intent "tick", fired at "clock#clock.cal.soggy", is rejected INTENT_NOT_ALLOWED_IN_STATE` + by
		slot["later_"+o+".yaml"] = ""
	}
	lintGolden(t, "../engine/testdata/conformance/emit-place-receivers", places, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/par-cross-receiver-slot", slot, ruleRejected, ruleWrongState)
	// lint-replay-clarify: an orchestrator's missing slot is a
	// clarification the run goes on after; the legacy path refuses it
	lintGolden(t, "../engine/testdata/conformance/lint-replay-clarify", map[string]string{
		"a_orch_clarify.yaml":   `turns[3]: intent "enter", fired at "top.p#top.outside|top.outside|top.p.ra.a2", is rejected GUARD_FAILED` + by,
		"b_legacy_missing.yaml": `turns[2]: intent "need", fired at "top.p#top.outside|top.outside|top.p.ra.a2", is rejected MISSING_SLOTS` + by,
	}, ruleRejected, ruleWrongState)
	// lint-replay-clock: a clock-only turn on a story with no timeout:
	// moves nothing, and the run goes on past it
	lintGolden(t, "../engine/testdata/conformance/lint-replay-clock", map[string]string{
		"a_clock_expect.yaml":   `turns[2].expect_state: "p#p.ra.x1|p.rb.x1|p.rc.x1|p.rd.x1", but the turn only advances the clock`,
		"b_clock_then_mra.yaml": `turns[3]: intent "mra", fired at "` + three + `|p.ra.x2", is rejected GUARD_FAILED` + by,
	}, ruleRejected, ruleWrongState)
}

// TestLintReplayCapRest: the on_error depth cap rests the turn at the
// originating state, which only the engine's machine follows: an
// expect_error turn the run accepts fails on both engines (region_loop*),
// and the leaf the run rests at after the last turn is where the fixture
// ends for expect_terminal (terminal.yaml), and turn.end names the
// refused target (endto.yaml, judged on the run's events).
func TestLintReplayCapRest(t *testing.T) {
	const accepted = `is accepted by the engine's own machine, run from "idle"`
	lintGolden(t, "../engine/testdata/conformance/cap-rest-neighbours", map[string]string{
		"endto.yaml":        `turns[0].expect_events[0]: {Kind:turn.end From: To:l2 Effect:map[]}, but the turn's intent "loop", fired at "idle", writes no such event`,
		"legacy.yaml":       "",
		"loop.yaml":         "",
		"loop2.yaml":        "",
		"region.yaml":       "",
		"region_loop.yaml":  `turns[1].expect_error: code GUARD_FAILED, but intent "loop", fired at "p#p.ra.a0|p.rb.b0", ` + accepted,
		"region_loop2.yaml": `turns[1].expect_error: code GUARD_FAILED, but intent "loop2", fired at "p#p.ra.a0|p.rb.b0", ` + accepted,
		"terminal.yaml":     `expect_terminal: true, but the fixture ends in "l1" (where the last turn certainly leaves it: it rests there on the engine's own machine`,
	}, ruleErrorCode, ruleNotTerminal, ruleRejected, ruleWrongState, ruleEvents)
}

// TestLintReplayEvents: an accepted turn's events on the run, read as
// the rig reads them, judge expect_events_exact's count (both paths)
// and leave an empty list alone (flow-not-checked says it).
func TestLintReplayEvents(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/expect-empty-exact-keys", map[string]string{
		"empty_legacy.yaml":  "",
		"empty_orch.yaml":    "",
		"listed_legacy.yaml": `turns[0].expect_events_exact: 1 event(s), but the turn's intent "go", fired at "a", writes 4 (machine.transition a→b, world.update, machine.state_exited, machine.state_entered)`,
		"listed_orch.yaml":   `turns[0].expect_events_exact: 1 event(s), but the turn's intent "go", fired at "a", writes 8 (turn.input, turn.start,`,
	}, ruleEvents, ruleRejected, ruleWrongState)
}

// TestLintReplayViews: the run renders views as the rig does, so a
// story whose views may fail to render is followed through a job's
// on_complete target too (exit-redirect-climb-imported gon: the child's
// redirect dropped at the exit, whose look the run refuses), and a
// target whose view fails still lands (job-complete-target-view-fails),
// while an on_complete call's on_error landing whose view fails drops
// the chain (landing-self-view-fails job2: the run would rest at m3
// without the views).
func TestLintReplayViews(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/landing-self-view-fails", map[string]string{
		"go-legacy.yaml": "", "go.yaml": "", "hop.yaml": "", "job.yaml": "", "job2.yaml": "",
		"kid.yaml": "", "ok.yaml": "", "par.yaml": "", "two.yaml": "",
	}, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/exit-redirect-climb-imported", map[string]string{
		"go.yaml":  "",
		"gob.yaml": "",
		"gon.yaml": `turns[2]: intent "look", fired at "__exit__done", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`,
		"pj.yaml":  "",
	}, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/job-complete-target-view-fails", map[string]string{
		"go_mm.yaml":  "",
		"go_ss.yaml":  `turns[2]: intent "ss" is not taken at "m"`,
		"go2_mm.yaml": "",
		"go2_ss.yaml": `turns[2]: intent "ss" is not taken at "g"`,
	}, ruleRejected, ruleWrongState)
}

// TestLintReplayView: the view an accepted orchestrator turn renders on
// the run judges expect_view_matches (view-par-transition-path f), and a
// run started at the first turn starts on the rig's own world: the
// legacy path's re-render shows initial_world's whole numbers as written
// (initial-world-seeded f: a=-12, which fails), the orchestrator's
// replays them as sets, floats (g: -12.000000, which passes).
func TestLintReplayView(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/view-par-transition-path", map[string]string{
		"f.yaml": `turns[0].expect_view_matches: "^TP p#p\\.ra\\.a1\\|p\\.rb\\.b1 \\[PD\\]", but the turn's intent "tp", fired at "s0", renders "TP p#p.ra.a1|p.rb.b1 [] True"`,
		"g.yaml": "",
	}, ruleView, ruleRejected, ruleWrongState)
	lintGolden(t, "../engine/testdata/conformance/initial-world-seeded", map[string]string{
		"f.yaml": `turns[0].expect_view_matches: "^a=-12\\.000000 b=8\\.000000 c=7 d=1\\.500000 e=$", but the turn's intent "go", fired at "s", renders "a=-12 b=8 c=7 d=1.500000 e="`,
		"g.yaml": "",
	}, ruleView, ruleRejected, ruleWrongState)
}

// TestLintReplayChoiceIntent: a story whose emit_intent chooses between
// two quoted names by a condition (choiceIntent) runs on the engine's
// own machine: both of expect-hop-accepted's documents count the events
// of a hop the run took (15 and 10 upstream, 6 on the legacy path), and
// cap-swallowed-origin-view's go2 rests where the post-bind choice led.
func TestLintReplayChoiceIntent(t *testing.T) {
	dir := "../engine/testdata/conformance/expect-hop-accepted"
	got := ruleMessages(t, dir, "hops.yaml", ruleEvents)
	want := []string{`turns[2].expect_events_exact: 1 event(s), but the turn's intent "hop", fired at "idle", writes 10`,
		`turns[0].expect_events_exact: 1 event(s), but the turn's intent "hop", fired at "idle", writes 6`}
	if len(got) != len(want) {
		t.Fatalf("want %d flow-events findings, got %q", len(want), got)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d: want %q, got %q", i, w, got[i])
		}
	}
	lintGolden(t, "../engine/testdata/conformance/cap-swallowed-origin-view", map[string]string{
		"go2.yaml": `turns[0].expect_state: "pa", but the turn's intent "go2", fired at "s0", rests at "b" on the engine's own machine`,
	}, ruleRejected, ruleWrongState)
}

// TestLintReplayPayload: a run started at the fixture's first turn, as
// the rig starts, writes the rig's payloads, so expect_events' effect:
// fields are judged on it (testdata/upstream/lint-replay-payload).
func TestLintReplayPayload(t *testing.T) {
	lintGolden(t, "testdata/upstream/lint-replay-payload", map[string]string{
		"turn_ok.yaml":    "",
		"set_ok.yaml":     "",
		"turn_bad.yaml":   `turns[1].expect_events[0]: {Kind:turn.start From: To: Effect:map[turn:3]}, but the turn's intent "go", fired at "b", writes no such event`,
		"legacy_bad.yaml": `turns[0].expect_events[0]: {Kind:machine.transition From: To: Effect:map[slots:map[x:2]]}, but the turn's intent "go", fired at "a", writes no such event`,
	}, ruleEvents)
}

// TestLintReplayLegacyJobsView: on the legacy path the view the rig
// checks is a re-render on the world the turn left, so a story with
// background jobs is judged there too, and on the orchestrator path a
// turn no job lands in and that leaves none answered at once out
// (parReplay.quiet): view-width-vs16's twelve documents expect no view
// (^$) and fail upstream, each at its first turn; an orchestrator
// document's second turn (a bound call, no job) is judged too, on a run
// begun afresh there.
func TestLintReplayLegacyJobsView(t *testing.T) {
	dir := "../engine/testdata/conformance/view-width-vs16"
	got := ruleMessages(t, dir, "look.yaml", ruleView)
	if len(got) != 18 {
		t.Fatalf("want 18 flow-view findings, got %d: %q", len(got), got)
	}
	kinds := map[string]int{}
	for _, m := range got {
		switch {
		case strings.Contains(m, `turns[0].expect_view_matches: "^$", but the turn's intent "look", fired at "room", renders`) && strings.Contains(m, "on the legacy path"):
			kinds["legacy"]++
		case strings.Contains(m, `turns[0].expect_view_matches: "^$", but the turn's intent "look", fired at "room", renders`) && strings.Contains(m, "answered by this fixture's stubs"):
			kinds["first"]++
		case strings.Contains(m, `turns[1].expect_view_matches: "^$", but the turn's intent "bind", fired at "room", renders`):
			kinds["bind"]++
		default:
			t.Errorf("unexpected finding %q", m)
		}
	}
	if kinds["legacy"] != 6 || kinds["first"] != 6 || kinds["bind"] != 6 {
		t.Errorf("want 6 legacy documents' turns[0], and 6 orchestrator documents' turns[0] and turns[1], got %v", kinds)
	}
}

// ruleMessages is the messages of rule's findings on the fixtures of the
// golden dir's flows/file, against its story.
func ruleMessages(t *testing.T, dir, file string, rule *diag.Rule) []string {
	t.Helper()
	var got []string
	for _, d := range lintFixtureFile(t, loadGoldenStory(t, dir), dir+"/flows/"+file) {
		if d.Rule == rule.ID {
			got = append(got, d.Message)
		}
	}
	return got
}

// TestLintReplayAtOnceJobRaces: a job the fixture answers at once is
// landed by the rig before the next intent, but upstream's listener
// races that intent (probed: this story passed 2 of 5 runs, its "stay"
// rejected at t in the others), so the run ends quietly where such a
// job is out, and no verdict is given on the turn after it.
func TestLintReplayAtOnceJobRaces(t *testing.T) {
	app := `app: { id: race, version: 0.1.0 }
hosts: [host.run]
intents: { go: {}, stay: {} }
root: s
states:
  s:
    on:
      go:
        - target: s
          effects:
            - invoke: host.run
              with: { cmd: "x" }
              background: true
              on_complete: [{ target: t }]
      stay: [{ target: s }]
  t:
    on:
      go: [{ target: s }]
`
	fixture := `test_kind: flow
use_orchestrator: true
initial_state: s
host_handlers:
  host.run: { data: { stdout: "" } }
turns:
  - intent: { name: go }
    expect_state: s
  - intent: { name: stay }
    expect_state: s
`
	for _, rule := range []*diag.Rule{ruleRejected, ruleWrongState, ruleView, ruleEvents} {
		for _, d := range ruleFindings(t, rule, map[string]string{"app.yaml": app}, fixture) {
			t.Errorf("a finding on a turn an at-once job races: %s", d.Message)
		}
	}
}
