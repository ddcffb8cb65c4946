package flowtest

import (
	"context"
	"math"

	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// replayView judges t's expect_view_matches and expect_no_view on the
// view the rig checks after the run's accepted turn (rigView: on the
// legacy path a re-render on the world the turn left, on the
// orchestrator's the turn's own unless empty), so a pattern it does not
// match, or a view where expect_no_view wants none, fails on both
// engines. Not judged: a turn of a story with background jobs on the
// orchestrator path that a job landed in or left a job answered at once
// out (parReplay.quiet: a landing merged into the turn's own view; the legacy path's
// re-render reads only the world the turn left, as the rig's does:
// conformance view-width-vs16's legacy documents), a run started mid-fixture on a world
// holding a number (the rig's may hold it as another Go type, which a
// view renders otherwise: conformance initial-world-seeded g, -12 there,
// -12.000000 upstream; a run started at the first turn starts on the
// rig's own world, replayFirst), and a pattern that does not compile
// (flow-bad-regex says it). It reports whether it warned.
func (l *fixtureLint) replayView(t *Turn, turn *engine.Turn, before string) bool {
	if t.ExpectViewMatches == nil && !t.ExpectNoView || l.ix.background && l.fx.Orchestrated() && !l.replay.quiet || l.ix.views == nil || l.replay.numbers {
		return false
	}
	own := turn.View
	if turn.Rejection != nil {
		own = "" // the orchestrator's clarification: the rig renders the rest
	}
	sess, state := l.replay.sess, turn.State
	if l.replay.advanced {
		// the rig checks the state the advance left, and re-renders it
		// where the turn's view was the rig's (rig-view-after-advance)
		state = sess.State()
		if turn.RigView {
			own = ""
		}
	}
	view := rigView(context.Background(), l.ix.views, l.ix.compiledMachine(), sess, state, sess.World(), own, !l.fx.Orchestrated())
	if t.ExpectViewMatches != nil {
		re, err := l.root.Patterns().Compile(*t.ExpectViewMatches)
		if err != nil || re.MatchString(view) {
			return false
		}
		l.warn(t.valueAt("expect_view_matches"), ruleView, "turns[%d].expect_view_matches: %q, but %s, fired at %q, renders %s on %s: the pattern does not match on both engines; match the view the turn renders, or fix the turns before it",
			t.Index, *t.ExpectViewMatches, firedName(t, l.replay.fired), before, shownView(view), l.replayHow())
		return true
	}
	if view != "" {
		l.warn(t.valueAt("expect_no_view"), ruleView, "turns[%d].expect_no_view: true, but %s, fired at %q, renders %s on %s: the check fails on both engines; drop expect_no_view, or fix the turns before it",
			t.Index, firedName(t, l.replay.fired), before, shownView(view), l.replayHow())
		return true
	}
	return false
}

// rigCosts makes the cost keys of w the floats the rig seeds them as
// (save.go's rigSeeded: 0.0), where the lint's known world holds whole
// numbers; a run with no agent call never changes them.
func rigCosts(w map[string]any) {
	for _, k := range []string{story.WorldSessionCostUSD, story.WorldTurnCostUSD} {
		if n, ok := jsonvalue.Integer(w[k]); ok {
			w[k] = float64(n)
		}
	}
}

// wholeNumbers reports whether w holds a whole number, at any depth,
// whose Go type may differ from the rig's: any but an integer at a top
// key the story declares type: int, or a cost key (rigCosts).
func (ix *storyIndex) wholeNumbers(w map[string]any) bool {
	found := false
	for k, v := range w {
		if k == story.WorldSessionCostUSD || k == story.WorldTurnCostUSD {
			continue // the rig's floats (rigCosts)
		}
		if d := ix.world[k]; d != nil && d.Type == "int" {
			if _, isInt := jsonvalue.Integer(v); isInt {
				continue
			}
		}
		jsonvalue.MapLeaves(v, func(x any) any {
			_, isInt := jsonvalue.Integer(x)
			f, isFloat := x.(float64)
			found = found || isInt || isFloat && f == math.Trunc(f)
			return x
		})
	}
	return found
}
