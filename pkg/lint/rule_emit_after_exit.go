package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleEmitAfterExit = &Rule{ID: "emit-after-exit", Severity: diag.Warning, LintOnly: true,
	Summary: "an unguarded emit_intent follows, in the same list, an emit whose arm reaches @exit: it is still dispatched, at __exit__<name>, where no arm takes it, so the exit never holds: a user's turn fails, an on_error landing rests on its state, a timeout's or job's landing and a post-bind round are dropped",
	Example: "effects:\n  - emit_intent: finish   # its arm targets @exit:done\n  - emit_intent: notify"}

// noArmOutcome is what an emit that finds no arm does, by where it runs
// (conformance landing-emits-fail, synthetic-swallowed-chain,
// lint-set-fails, postbind-discard-replays): upstream swallows a chain no
// user asked for.
const noArmOutcome = "a user's turn fails, an on_error landing rests on its state, a timeout's or background job's landing and a post-bind round are dropped"

// checkEmitAfterExit warns about an unguarded emit_intent listed after one
// that certainly exits: the engines do not stop an emit list at an exit
// (conformance emit-after-exit), and the chain the list is in fails there,
// which undoes the exit whoever runs it (conformance emit-after-exit-landing:
// a landing upstream swallows). Only what is certain is reported.
func checkEmitAfterExit(c *checker) { c.eachEmitList(c.emitsAfterExit) }

// eachEmitList calls f with each effect list whose emit_intent entries are
// dispatched at one known leaf first: an arm's effects at the leaf its
// move lands on (the state itself for a stay), and a leaf's on_enter at
// the leaf; where names the list in messages.
func (c *checker) eachEmitList(f func(at *story.State, effs []*story.Effect, where emitPlace)) {
	c.eachTransition(func(s *story.State, intent string, _ int, t *story.Transition) {
		tg, err := s.Resolve(t.Target)
		if err != nil {
			return
		}
		where := emitPlace{state: s.Path, intent: intent}
		switch tg.Kind {
		case story.TargetStay:
			f(s, t.Effects, where)
		case story.TargetState:
			if tg.State.Import == nil {
				f(c.descend(tg.State), t.Effects, where)
			}
		}
	})
	for _, s := range c.states() {
		if len(s.Children) == 0 {
			f(s, s.OnEnter, emitPlace{state: s.Path, onEnter: true})
		}
	}
}

// emitPlace names an effect list in messages: an arm's (state and
// intent) or a leaf's on_enter. It is formatted only when a finding is
// reported, as a story may hold many lists with long names.
type emitPlace struct {
	state, intent string
	onEnter       bool
}

func (p emitPlace) String() string {
	if p.onEnter {
		return fmt.Sprintf("state %q on_enter", p.state)
	}
	return fmt.Sprintf("state %q intent %q", p.state, p.intent)
}

// emitsAfterExit follows the emit_intent entries of effs, dispatched at
// the leaf at, and warns about each one after an emit that exits.
func (c *checker) emitsAfterExit(at *story.State, effs []*story.Effect, where emitPlace) {
	if !plainLeaf(at) {
		return
	}
	exit, by := "", ""
	for _, e := range effs {
		name := strings.TrimSpace(e.EmitIntent())
		if name == "" {
			continue
		}
		if exit != "" {
			if e.When != "" {
				continue // may be false whenever the exit fires
			}
			c.rep.Warnf(e.PosOf("emit_intent"), ruleEmitAfterExit,
				"%s: emit_intent %q comes after emit_intent %q, which reaches @exit:%s when it fires; the engine does not stop the list at an exit, so %q is then dispatched at __exit__%s, where no arm takes it, and the exit never holds: "+noArmOutcome+" (move it before %q, or drop it)",
				where, name, by, exit, name, exit, by)
			continue
		}
		if story.IsTemplated(name) {
			return
		}
		arm := firstArm(at, name)
		if arm == nil || arm.When != "" {
			return
		}
		tg, err := at.Resolve(arm.Target)
		switch {
		case err != nil:
			return
		case tg.Kind == story.TargetExit:
			exit, by = tg.Exit, name
		case tg.Kind == story.TargetStay && !hasEmit(arm.Effects):
		default:
			return
		}
	}
}

// firstArm is the first arm for intent on at or its nearest ancestor with
// an on: entry for it, as the engine looks an emitted intent up.
func firstArm(at *story.State, intent string) *story.Transition {
	if s := nearest(at, func(s *story.State) bool { return s.HasOn(intent) }); s != nil && len(s.Arms(intent)) > 0 {
		return s.Arms(intent)[0]
	}
	return nil
}

func hasEmit(effs []*story.Effect) bool {
	return slices.ContainsFunc(effs, func(e *story.Effect) bool { return e.EmitIntent() != "" })
}

func inParallel(s *story.State) bool {
	return nearest(s.Parent, func(p *story.State) bool { return p.Parallel }) != nil
}

// nearest is the first of s and its ancestors that is, or nil.
func nearest(s *story.State, is func(*story.State) bool) *story.State {
	for s != nil && !is(s) {
		s = s.Parent
	}
	return s
}
