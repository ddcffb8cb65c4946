package flowtest

import "testing"

// TestLintParLeaves: from a quiet entry into a parallel state (or a
// start at root#leaf|leaf), the lint follows each region's leaf through
// the region moves it is certain of, and judges the next turn there: an
// intent no leaf takes, nor a state above one, is refused; every arm the
// leaves reach false is GUARD_FAILED; an expect_state naming another
// path fails (conformance lint-par-leaves). An on_enter emit, a cross-region move,
// the parallel state's own re-entry are not followed.
func TestLintParLeaves(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-par-leaves", map[string]string{
		"a_tick_twice.yaml":                 `turns[2]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry", the configuration of the parallel state "clock" the fixture certainly rests in, where turns[1] "tick", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", moves the region "clock.calendar" from "clock.calendar.day1" to "clock.calendar.day2" (the arm of "clock.calendar.day1" it certainly takes), after turns[0] "enter"`,
		"b_region_ancestor_then_tick.yaml":  `turns[2]: intent "tick" is not taken at "clock#clock.calendar.soggy|clock.sky.clear|clock.weather.dry"`,
		"c_tick_then_precip.yaml":           "",
		"d_wait_keeps.yaml":                 `turns[3]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"e_expect_stale.yaml":               `turns[1].expect_state: "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", but turns[1] "tick", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", moves the region "clock.calendar" from "clock.calendar.day1" to "clock.calendar.day2"`,
		"f_expect_right.yaml":               "",
		"g_emit_not_followed.yaml":          `turns[2]: intent "tick" is not taken at "clock#clock.calendar.soggy|clock.sky.clear|clock.weather.rain"`,
		"h_hash_start.yaml":                 `turns[1]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"i_hash_start_unsorted.yaml":        `turns[1]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"j_guard_true.yaml":                 `turns[2]: intent "warm" is not taken at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain"`,
		"k_guard_false_next_leaf.yaml":      `turns[2]: intent "chill", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain", the configuration of the parallel state "clock" the fixture certainly rests in (where turns[1] "chill", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", moves the region "clock.weather" from "clock.weather.dry" to "clock.weather.rain" (the arm of "clock.weather.dry" it certainly takes), after turns[0] "enter", fired at "outside" (where the fixture starts (initial_state)), enters "clock"), reaches the arms of "clock.calendar.day1" and of every leaf after it that takes it, and every one's when: is false on the world the fixture certainly has then (first: world.cold): the turn is rejected GUARD_FAILED`,
		"l_expect_leaf.yaml":                `turns[1].expect_state: "clock.calendar.day2", but turns[1] "tick"`,
		"m_legacy_tick_twice.yaml":          `turns[2]: intent "tick" is not taken at "clock#clock.calendar.day2|clock.sky.clear|clock.weather.dry"`,
		"n_leave_enter_resets.yaml":         "",
		"o_stay_not_followed.yaml":          "",
		"q_on_enter_emit_not_followed.yaml": `turns[2]: intent "fog" is not taken at "clock#clock.calendar.day1|clock.sky.mist|clock.weather.dry"`,
		"r_cross_region_not_followed.yaml":  `turns[3]: intent "tick" is not taken at "clock#clock.sky.clear|clock.weather.dry|clock.weather.rain"`,
		"s_expected_rejection.yaml":         "",
		"t_round_passes.yaml":               "",
		"u_unsorted_wait_label.yaml":        "",
		"v_unsorted_wait_sorted.yaml":       `turns[0].expect_state: "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", but the fixture starts (initial_state): the machine rests at "clock#clock.weather.dry|clock.sky.clear|clock.calendar.day1"`,
		"w_asserted_guard_false.yaml":       `turns[2]: intent "chill", fired at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain"`,
		"x_asserted_guard_true.yaml":        `turns[2]: intent "warm" is not taken at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain"`,
	}, ruleRejected, ruleWrongState)
}

// TestLintParSpelling: a start spelled root#leaf|leaf is printed as
// written until an intent is taken there, then sorted; intents try the
// leaves by path whatever the spelling (conformance lint-par-spelling).
func TestLintParSpelling(t *testing.T) {
	const start = `"clock#clock.weather.dry|clock.sky.clear|clock.calendar.day1"`
	lintGolden(t, "../engine/testdata/conformance/lint-par-spelling", map[string]string{
		"a_poke_spelling.yaml":        `turns[0].expect_state: ` + start + `, but turns[0] "poke", fired at ` + start,
		"b_poke_sorted.yaml":          "",
		"c_pokeself_spelling.yaml":    `turns[0].expect_state: ` + start + `, but turns[0] "pokeself", fired at ` + start,
		"d_pokeself_sorted.yaml":      "",
		"e_rejected_spelling.yaml":    "",
		"f_rejected_sorted.yaml":      `turns[1].expect_state: "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry", but the fixture starts (initial_state), and turns[0] "enter" is rejected there as it expects, moving nothing: the machine rests at ` + start,
		"g_stay_spelling.yaml":        `turns[0].expect_state: ` + start + `, but turns[0] "stay" re-enters "clock" (its own arm, target "."): the machine rests at "clock#clock.calendar.day1|clock.sky.clear|clock.weather.dry"`,
		"h_stay_sorted.yaml":          "",
		"i_legacy_poke_spelling.yaml": `turns[0].expect_state: ` + start + `, but turns[0] "poke"`,
		"j_legacy_poke_sorted.yaml":   "",
		"k_both_by_path.yaml":         "",
		"l_both_spelling_order.yaml":  `turns[0].expect_state: "clock#clock.calendar.day1|clock.sky.clear|clock.weather.rain", but turns[0] "both", fired at ` + start + `, moves the region "clock.calendar" from "clock.calendar.day1" to "clock.calendar.day2"`,
		"m_wait_tick_unsorted.yaml":   `turns[1].expect_state: "clock#clock.weather.dry|clock.sky.clear|clock.calendar.day2", but turns[1] "tick"`,
		"n_named_then_sorted.yaml":    `the machine rests at ` + start + ` (each region's leaf followed from the turns before it), spelled as the fixture named it last`,
		"o_named_then_tick.yaml":      "",
	}, ruleRejected, ruleWrongState)
}

// TestLintParWorld: the world after a quiet entry into a parallel state
// is followed: the arm's effects, the on_enter of the states above it and
// of it, then each region's chain down to its initial leaf, regions
// sorted by path (conformance lint-par-world).
func TestLintParWorld(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-par-world", map[string]string{
		"a_n.yaml":                   "",
		"b_who_p.yaml":               `turns[0].expect_world["who"]: "p", but after the turns before it and this one the fixture certainly holds "rb" there`,
		"c_who_ra.yaml":              `turns[0].expect_world["who"]: "ra", but after the turns before it and this one the fixture certainly holds "rb" there`,
		"d_who_rb.yaml":              "",
		"e_leaf_a1.yaml":             `turns[0].expect_world["leaf"]: "a1", but after the turns before it and this one the fixture certainly holds "b1" there`,
		"f_leaf_b1.yaml":             "",
		"g_sets.yaml":                "",
		"h_sets_wrong.yaml":          `turns[0].expect_world["pset"]: false, but after the turns before it and this one the fixture certainly holds true there`,
		"i_out_wrong.yaml":           `turns[0].expect_world["out"]: "x", but after the turns before it and this one the fixture certainly holds "arm" there`,
		"j_ping_guard.yaml":          "",
		"k_ping_guard_wrong.yaml":    `turns[1].expect_state: "clock#clock.ra.a1|clock.rb.b1", but turns[1] "ping", fired at "clock#clock.ra.a1|clock.rb.b1", moves the region "clock.ra" from "clock.ra.a1" to "clock.ra.a2"`,
		"l_check.yaml":               `turns[1]: intent "check", fired at "clock"`,
		"m_emit_entry.yaml":          "",
		"n_emit_entry_wrong.yaml":    `turns[0].expect_world["hit"]: false, but after the turns before it and this one the fixture certainly holds true there`,
		"o_regions_by_path.yaml":     "",
		"p_regions_as_declared.yaml": `turns[0].expect_world["who"]: "ar", but after the turns before it and this one the fixture certainly holds "zr" there`,
		"q_region_chain_whole.yaml":  `turns[0].expect_world["out"]: "a1leaf", but after the turns before it and this one the fixture certainly holds "zr" there`,
		"r_legacy_n.yaml":            `turns[0].expect_world["n"]: 112, but after the turns before it and this one the fixture certainly holds 111 there`,
	}, ruleRejected, ruleWrongState, ruleWorldKnown)
}

// TestLintParEmit: a region's move hands what it emits to every other
// region that takes it, in path order, then what those emit in turn
// (conformance lint-par-emit).
func TestLintParEmit(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-par-emit", map[string]string{
		"a_go_all_receive.yaml":         "",
		"b_go_first_only.yaml":          `turns[1].expect_state: "p#p.ra.a2|p.rb.b2|p.rc.c1", but turns[1] "go", fired at "p#p.ra.a1|p.rb.b1|p.rc.c1", moves the region "p.ra" from "p.ra.a1" to "p.ra.a2" (the arm of "p.ra.a1" it certainly takes), and its emits move "p.rb" to "p.rb.b2" ("ev" of "p.rb"), "p.rc" to "p.rc.c2" ("ev" of "p.rc.c1")`,
		"c_go_then_probe.yaml":          "",
		"d_golist.yaml":                 "",
		"e_golist_one.yaml":             `the machine rests at "p#p.ra.a2|p.rb.b3|p.rc.c2"`,
		"f_self_not_own.yaml":           "",
		"g_self_own.yaml":               `the machine rests at "p#p.ra.a2|p.rb.b3|p.rc.c1"`,
		"h_chain.yaml":                  `the machine rests at "p#p.ra.a2|p.rb.b2|p.rc.c2"`,
		"i_chain_followed.yaml":         "",
		"j_bump_stay.yaml":              "",
		"k_go_then_ev_refused.yaml":     `turns[2]: intent "go" is not taken at "p#p.ra.a2|p.rb.b2|p.rc.c2"`,
		"l_go_rest_wrong.yaml":          `the machine rests at "p#p.ra.a2|p.rb.b2|p.rc.c2"`,
		"m_guarded_receiver.yaml":       "",
		"n_guarded_receiver_wrong.yaml": `its emits move "p.rb" to "p.rb.b3" ("gev" of "p.rb.b1")`,
		"o_receivers_first.yaml":        "",
		"p_nested_first.yaml":           `the machine rests at "q#q.qa.a2|q.qb.b2|q.qc.c4"`,
		"q_legacy_go.yaml":              `the machine rests at "p#p.ra.a2|p.rb.b2|p.rc.c2"`,
	}, ruleRejected, ruleWrongState)
}

// TestLintParEmitGuard: a guarded receiver of a region's emit takes the
// arm that holds on the world the turn has left so far; one whose arms
// are all false stays (conformance lint-par-emit-guard); e, whose guard
// reads a slot, is judged on the engine's own machine (lint_par_replay.go).
func TestLintParEmitGuard(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-par-emit-guard", map[string]string{
		"a_false_then_default_wrong.yaml":  `and its emits move "p.rb" to "p.rb.b3" ("pev" of "p.rb.b1"), "p.rc" to "p.rc.c2" ("pev" of "p.rc.c1")`,
		"b_false_then_default_passes.yaml": "",
		"c_emitter_writes_passes.yaml":     "",
		"d_emitter_writes_wrong.yaml":      `turns[1].expect_state: "p#p.ra.a2|p.rb.b3|p.rc.c1", but turns[1] "pingset"`,
		"e_slot_guard_wrong.yaml":          `rests at "p#p.ra.a2|p.rb.b2|p.rc.c1" on the engine's own machine, run from "outside"`,
		"f_world_set_wrong.yaml":           `the machine rests at "p#p.ra.a2|p.rb.b2|p.rc.c1"`,
	}, ruleRejected, ruleWrongState)
}

// TestLintParEnterEmit: an on_enter's emit: reaches no region, on entry
// or on a region's move (conformance lint-par-enter-emit).
func TestLintParEnterEmit(t *testing.T) {
	lintGolden(t, "../engine/testdata/conformance/lint-par-enter-emit", map[string]string{
		"a_enter_fog_passes.yaml":         "",
		"b_legacy_enter_fog_passes.yaml":  "",
		"c_enter_moved_wrong.yaml":        `turns[0].expect_state: "clock2#clock2.rc.c1|clock2.rd.d2"`,
		"d_fog_moved_wrong.yaml":          `the machine rests at "clock2#clock2.rc.c2|clock2.rd.d1"`,
		"e_ping_passes.yaml":              "",
		"f_fog_ping_ping.yaml":            `turns[3]: intent "ping" is not taken at "clock2#clock2.rc.c2|clock2.rd.d2"`,
		"g_legacy_enter_moved_wrong.yaml": `turns[0].expect_state: "clock2#clock2.rc.c1|clock2.rd.d2"`,
		"h_enter_hit_wrong.yaml":          `turns[0].expect_world["hit"]: false`,
	}, ruleRejected, ruleWrongState, ruleWorldKnown)
}

// TestLintParCross: a region's arm whose target is a leaf of another
// region leaves two leaves of that one and none of its own; an intent
// neither takes is refused, and an expect_state naming another path
// fails (conformance lint-par-cross, against its upstream.json). No move
// from there is followed.
func TestLintParCross(t *testing.T) {
	const crossed = `is not taken at "p#p.rb.b1|p.rb.b2"`
	want := map[string]string{}
	for _, o := range []string{"o", "l"} {
		want["a"+o+".yaml"] = `turns[2]: intent "ga" ` + crossed
		want["b"+o+".yaml"] = ""
		// gb1 is allowed (b1 takes it) but looked up from b2 alone, the
		// leaf read back: GUARD_FAILED (lint_par_fired.go)
		want["c"+o+".yaml"] = `turns[2]: intent "gb1", fired at "p#p.rb.b1|p.rb.b2"`
		want["d"+o+".yaml"] = ""
		want["e"+o+".yaml"] = `turns[1].expect_state: "p#p.ra.a1|p.rb.b1", but turns[1] "cross"`
		want["f"+o+".yaml"] = ""
		want["g"+o+".yaml"] = `turns[2]: intent "ga" is not taken at "p#p.rb.b1|p.rb.b1"`
		// the move from the leaf read back lands b3 alone
		want["h"+o+".yaml"] = `turns[3]: intent "gb1" is not taken at "p#p.rb.b3"`
		want["i"+o+".yaml"] = `turns[3]: intent "ga" is not taken at "p#p.rb.b3"`
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-cross", want, ruleRejected, ruleWrongState)
}

// TestLintParAboveRoot: a certain arm of the parallel state, or of an
// ancestor, whose target lies inside it moves the firing leaf's region
// (conformance lint-par-above-root); a move from the two leaves of rb it
// may leave starts from the leaf read back.
func TestLintParAboveRoot(t *testing.T) {
	const crossed = `turns[2]: intent "go" is not taken at "top.p#top.p.rb.b1|top.p.rb.b2"`
	want := map[string]string{}
	for _, o := range []string{"_orch", "_legacy"} {
		want["e"+o+".yaml"] = crossed
		want["e2"+o+".yaml"] = crossed
		want["e3"+o+".yaml"] = `turns[2]: intent "go" is not taken at "top.p#top.p.ra.a3|top.p.rb.b1"`
		want["pe"+o+".yaml"] = ""
		want["pe2"+o+".yaml"] = ""
		want["pe3"+o+".yaml"] = ""
		want["wrong"+o+".yaml"] = `turns[1].expect_state: "top.p#top.p.ra.a1|top.p.rb.b2", but turns[1] "e"`
		want["back"+o+".yaml"] = ""
		want["backgo"+o+".yaml"] = `turns[3]: intent "go" is not taken at "top.p#top.p.rb.b1"`
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-above-root", want, ruleRejected, ruleWrongState)
}

// TestLintParExpectAllowed: a turn expecting INTENT_NOT_ALLOWED_IN_STATE
// at a known parallel configuration one of whose printed leaves takes
// its intent always fails (conformance lint-par-expect-allowed).
func TestLintParExpectAllowed(t *testing.T) {
	want := map[string]string{}
	for _, o := range []string{"o", "l"} {
		want["a"+o+".yaml"] = `turns[2].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent "gb1" is taken at "p#p.rb.b1|p.rb.b2"`
		want["b"+o+".yaml"] = ""
		want["c"+o+".yaml"] = ""
		want["d"+o+".yaml"] = `turns[1].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent "gb1" is taken at "p#p.ra.a1|p.rb.b1"`
		want["e"+o+".yaml"] = `turns[2].expect_error: code INTENT_NOT_ALLOWED_IN_STATE, but intent "gb1" is taken at "p#p.rb.b1|p.rb.b1"`
		want["f"+o+".yaml"] = ""
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-expect-allowed", want, ruleRejected, ruleWrongState, ruleErrorCode)
}

// TestLintParOpen: a parallel state a region's arm may leave is followed
// while its leaves are known (conformance lint-par-open).
func TestLintParOpen(t *testing.T) {
	want := map[string]string{}
	for _, o := range []string{"o", "l"} {
		want["a"+o+".yaml"] = `turns[2]: intent "enter" is not taken in the parallel state "p"`
		want["b"+o+".yaml"] = ""
		want["c"+o+".yaml"] = `turns[1].expect_state: "p#p.ra.a1|p.rb.b1", but turns[1] "x"`
		want["d"+o+".yaml"] = ""
		// run (a call) is not followed by the hand model; the engine's own
		// machine follows it, the stub answering (lint_par_replay.go)
		want["e"+o+".yaml"] = `turns[3]: intent "x", fired at "p#p.ra.a2|p.rb.b1", is rejected INTENT_NOT_ALLOWED_IN_STATE by the engine's own machine`
		want["f"+o+".yaml"] = `turns[2]: intent "x" is not taken at "p#p.ra.a2|p.rb.b1"`
		want["g"+o+".yaml"] = `turns[2]: intent "enterq" is not taken in the parallel state "q"`
		want["h"+o+".yaml"] = "" // qgo's ping, which q takes, is not followed
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-open", want, ruleRejected, ruleWrongState)
}

// TestLintParUntyped: a region without type: compound is its own
// landing, and an arm targeting the parallel state lands every region
// again (conformance lint-par-untyped).
func TestLintParUntyped(t *testing.T) {
	const entered = `is not taken at "p#p.ra|p.rb"`
	want := map[string]string{}
	for _, o := range []string{"o", "l"} {
		want["tp"+o+".yaml"] = `turns[1]: intent "tp" ` + entered
		want["tra"+o+".yaml"] = `turns[1]: intent "tra" ` + entered
		want["trb"+o+".yaml"] = `turns[1]: intent "trb" ` + entered
		want["ptp"+o+".yaml"] = `turns[1]: intent "tp" ` + entered
		want["ptrb"+o+".yaml"] = `turns[1]: intent "trb" ` + entered
		want["entry"+o+".yaml"] = `turns[1]: intent "look" is not taken in the parallel state "p#p.ra|p.rb"`
		want["stp"+o+".yaml"] = ""
		want["strb"+o+".yaml"] = ""
		want["strbw"+o+".yaml"] = `turns[0].expect_state: "p#p.rb.b1|p.rb.b1", but turns[0] "trb"`
		want["tq"+o+".yaml"] = ""
		want["tqw"+o+".yaml"] = `turns[2].expect_state: "q#q.qa.c1|q.qb.d2", but turns[2] "tq"`
		want["tqb"+o+".yaml"] = ""
		want["tqbl"+o+".yaml"] = `turns[2]: intent "look" is not taken at "q#q.qb.d1|q.qb.d1"`
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-untyped", want, ruleRejected, ruleWrongState)
}

// TestLintParBare: a bare parallel start's own arm naming it enters
// every region (conformance lint-par-bare).
func TestLintParBare(t *testing.T) {
	want := map[string]string{}
	for _, o := range []string{"o", "l"} {
		want["a"+o+".yaml"] = ""
		want["c"+o+".yaml"] = `turns[0].expect_state: "p", but turns[0] "go"`
		want["d"+o+".yaml"] = `turns[2]: intent "x" is not taken at "p#p.ra.a2|p.rb.b1"`
		want["e"+o+".yaml"] = `turns[1]: intent "out" is not taken in the parallel state "p"`
		want["f"+o+".yaml"] = ""
	}
	lintGolden(t, "../engine/testdata/conformance/lint-par-bare", want, ruleRejected, ruleWrongState)
}
