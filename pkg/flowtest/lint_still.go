package flowtest

import (
	"slices"

	"kitsoki/pkg/story"
)

func allEffects(effs []*story.Effect, ok func(*story.Effect) bool) bool {
	return !slices.ContainsFunc(effs, func(e *story.Effect) bool { return e != nil && !ok(e) })
}

func plainEffects(effs []*story.Effect) bool { return allEffects(effs, plainEffect) }

// stillEffect is the test of an effect that cannot move the machine on
// the fixture's path: plainEffect, or a host call with no emit, target
// or nested effects of its own that the path makes without a redirect:
// the legacy path makes none (flow-format §1.3, §4.5); on the
// orchestrator path a call without on_error lands the turn normally
// when it fails (story-runtime §2.3), as does one the fixture certainly
// answers without an error, and a background one whose
// on_complete only sets and says moves nothing when it lands (§5).
func (l *fixtureLint) stillEffect() func(*story.Effect) bool {
	legacy := !l.fx.Orchestrated()
	return func(e *story.Effect) bool {
		if plainEffect(e) {
			return true
		}
		if e.Invoke == "" || e.EmitIntent() != "" || e.Target() != "" || len(e.Effects()) > 0 {
			return false
		}
		if legacy || e.Agent() != "" {
			return legacy
		}
		if e.Background() {
			return e.OnError() == "" && plainEffects(e.OnComplete())
		}
		// a foreground call the fixture certainly answers without an
		// error never takes its on_error
		return e.OnError() == "" || l.succeeds(e)
	}
}

// succeeds reports whether the fixture certainly answers call e without
// an error.
func (l *fixtureLint) succeeds(e *story.Effect) bool {
	a := l.answerOf(e)
	return a.known && a.err == ""
}

// plainEffect: a set, increment or say, which cannot move the machine.
func plainEffect(e *story.Effect) bool {
	return e.Invoke == "" && e.EmitIntent() == "" && e.Target() == "" && !e.Background() && len(e.Effects()) == 0 && len(e.OnComplete()) == 0
}
