package lint

import (
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEmitAtTarget = &Rule{ID: "emit-at-target", Severity: diag.Warning, LintOnly: true,
	Summary: "an arm's first emit_intent is unguarded, and the state its move lands on (with its ancestors) takes no arm for the intent, or the arm reaches @exit in a story run on its own: the engines dispatch an arm's emits after its move, at the target, so the emit finds no arm there, on both engines, every time the arm fires: " + noArmOutcome,
	Example: "on:\n  go:\n    - target: other      # other has no on: ping\n      effects:\n        - emit_intent: ping"}

// checkEmitAtTarget warns at the first emit_intent of an arm's effects
// when it is unguarded and the arm's move lands where no arm takes it:
// the engines run an arm's effects after the move, so its emits are
// dispatched at the target (probed with the existing engine: "emit_intent
// "ping" at "other": no transition arm matched", and at "__exit__out" for
// an @exit arm of a story run on its own, both failing the turn; kitsoki
// the same). The intent rule checks an emit against the arm's own state,
// where it is declared; this one checks where it lands. Only what is
// certain is reported: a literal target landing on a leaf outside any
// parallel state, no on_enter emit on the way (it may move the machine
// first), no effect before the emit that may redirect (on_error:) or run
// in the background. An @exit arm is judged only in a story loaded on its
// own: imported, the exit lands on the importer's target.
func checkEmitAtTarget(c *checker) {
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		e := firstEmit(t.Effects)
		if e == nil || e.When != "" || inParallel(s) || s.Parallel {
			return
		}
		name := strings.TrimSpace(e.EmitIntent())
		if story.IsTemplated(name) {
			return
		}
		tg, err := s.Resolve(t.Target)
		if err != nil {
			return
		}
		switch tg.Kind {
		case story.TargetExit:
			if c.st.Imported() {
				return
			}
			c.rep.Warnf(e.PosOf("emit_intent"), ruleEmitAtTarget,
				"state %q intent %q arm %d: emit_intent %q runs after the arm's move to @exit:%s, so it is dispatched at __exit__%s, where no arm takes it, whenever the arm fires (run on its own, as the story's flows run it): "+noArmOutcome+" (emit it from the state the exit leads to, or drop it)",
				s.Path, intent, arm, name, tg.Exit, tg.Exit)
		case story.TargetState:
			if tg.State.Import != nil {
				return
			}
			dst := c.descend(tg.State)
			if !plainLeaf(dst) || emitsOnWay(s, dst) || takes(dst, name) {
				return
			}
			c.rep.Warnf(e.PosOf("emit_intent"), ruleEmitAtTarget,
				"state %q intent %q arm %d: emit_intent %q runs after the arm's move, so it is dispatched at %q, and no arm of %q or its ancestors takes %q, whenever the arm fires: "+noArmOutcome+" (add an on: %s arm to %q, or emit an intent it takes)",
				s.Path, intent, arm, name, dst.Path, dst.Path, name, name, dst.Path)
		}
	})
}

// firstEmit is the first emit_intent entry of effs, or nil when there is
// none or an effect before it may move the machine first (an on_error:
// redirect) or runs in the background.
func firstEmit(effs []*story.Effect) *story.Effect {
	for _, e := range effs {
		if e == nil {
			continue
		}
		if e.EmitIntent() != "" {
			return e
		}
		if e.OnError() != "" || e.Background() {
			return nil
		}
	}
	return nil
}
