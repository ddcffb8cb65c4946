package flowtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/story"
)

// targetText renders a user turn's templated target (a {{ }} arm target)
// on what the fixture certainly has; legacy says the fixture runs on
// the legacy path, where a target rendering above the top level rests
// on the empty path (the orchestrator path keeps the state the turn
// began in: conformance template-target-above-top).
type targetText struct {
	render func(src string, a *story.Transition) (string, bool)
	legacy bool
}

// targetRender is targetText for t (nil: an emit hop, whose slots are
// not judged). A user turn's target renders with
// pongo2 (story-runtime §1.6); only a target whose text is certain
// without a template engine is rendered here: text around plain
// {{ world.K }} and {{ slots.K }} reads (no tag, filter or expression:
// plainTarget), each value a string the fixture certainly holds before
// the turn (world) or sends in a slot declared as text (textSlot), free
// of the characters an escape may rewrite, and no key the arm's effects
// may write.
func (l *fixtureLint) targetRender(t *Turn) targetText {
	return targetText{legacy: !l.fx.Orchestrated(), render: func(src string, a *story.Transition) (string, bool) {
		if l.world == nil || !plainTarget.MatchString(src) {
			return "", false
		}
		wrote, all := map[string]bool{}, false
		for _, e := range a.Effects {
			if e == nil || !effectWrites(e, l.fx.Orchestrated(), func(k string) { wrote[k] = true }) {
				all = true
			}
		}
		ok := true
		out := targetRead.ReplaceAllStringFunc(src, func(m string) string {
			sub := targetRead.FindStringSubmatch(m)
			var v any
			var got bool
			if sub[1] == "world" {
				v, got = l.world.get(sub[2])
				got = got && !all && !wrote[sub[2]]
			} else if t != nil && t.Intent != nil {
				v, got = sentSlot(t, sub[2])
				got = got && l.textSlot(t, sub[2])
			}
			text, isText := targetValue(v)
			if !isText && t == nil {
				// a hop's target renders with expr: no escaping, a list,
				// an object or a bool interpolated as upstream does
				// (conformance hop-target-json)
				text, isText = hopValue(v)
			} else if strings.ContainsAny(text, "<>&'\"{}%") {
				isText = false
			}
			if !got || !isText {
				ok = false
			}
			return text
		})
		return out, ok
	}}
}

// targetValue is the text a target renders a world or slot value as,
// when certain: a string as it is, an integer in decimal (both engines,
// both paths: conformance lint-target-int); not a float, which the legacy
// path renders with six decimals (3.000000) and the orchestrator path
// without, nor any other value.
func targetValue(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(x), true
	}
	return "", false
}

// hopValue is the text an emit hop's target interpolates a world value
// other than a string or an integer as, when certain: a bool as true or
// false, a list or an object as its compact JSON (["x"], {"k":"v"}:
// conformance hop-target-json); not a float, nor a text holding a
// character a path reads (".", "/", "#", "@") or a space.
func hopValue(v any) (string, bool) {
	switch v.(type) {
	case bool, []any, map[string]any:
	default:
		return "", false
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "", false
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if strings.ContainsAny(text, "./#@ \t\n") || strings.Contains(text, "{{") {
		return "", false
	}
	return text, true
}

// textSlot reports a slot every declaration of t's intent declares as
// text (type: string, or none), which the engines send on as sent.
func (l *fixtureLint) textSlot(t *Turn, name string) bool {
	decls := l.ix.decls[t.Intent.Name]
	return len(decls) > 0 && allDecls(decls, func(it *story.Intent) bool {
		sl := it.Slots[name]
		return sl != nil && (sl.Type == "" || sl.Type == "string")
	})
}

// plainTarget is a target of text and plain {{ world.K }} or
// {{ slots.K }} reads (targetRead) only.
var (
	targetRead  = &lazyre.Regexp{Expr: `\{\{\s*(world|slots)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`}
	plainTarget = &lazyre.Regexp{Expr: `^(?:[^{}%|]|\{\{\s*(?:world|slots)\.[A-Za-z_][A-Za-z0-9_]*\s*\}\})*$`}
)

// renderedLanding is where a templated target src of arm a, declared at
// n, certainly lands the machine (renderedPath): a state's landing, or,
// for a path the story does not hold, a state of its own there
// (unknownAt); nil when that is not certain.
func (ix *storyIndex) renderedLanding(n *story.State, src string, a *story.Transition, still func(*story.Effect) bool, tx targetText) []*story.State {
	p, known, ok := ix.renderedPath(n, src, a, tx)
	switch {
	case !ok:
		return nil
	case known:
		return ix.landingRendered(ix.byPath[p], still, tx)
	}
	if u := ix.unknownAt(p); u != nil {
		return []*story.State{u}
	}
	return nil
}

// renderedPath is the path a templated target src of arm a, declared at
// n, certainly renders and resolves to, and whether the story holds it:
// upstream's machine moves to a path it does not hold all the same
// (conformance mutate-template-target-unknown,
// template-target-same-unknown), a rendered "@exit:NAME" as written
// (conformance template-target-exit, exit-state-terminal run-tm); ok is
// false when the render is not certain, renders a stay, another "@" form
// or an exit's __exit__NAME, the path is a parallel encoding, the arm is
// in a parallel state or the story imports.
func (ix *storyIndex) renderedPath(n *story.State, src string, a *story.Transition, tx targetText) (path string, known, ok bool) {
	if tx.render == nil || inParallel(n) || ix.story != ix.source {
		// a move out of a parallel state, and a folded story's (an
		// imported child's target is rewritten by the fold), are not
		// followed
		return "", false, false
	}
	s, ok := tx.render(src, a)
	s = strings.TrimSpace(s)
	if ok && strings.HasPrefix(s, "@exit:") {
		// only a written @exit: is an exit: a rendered one is a path the
		// story does not hold (conformance template-target-exit)
		return s, false, ix.knownAncestor(s) == ""
	}
	if !ok || s == "" || s == "." || strings.HasPrefix(s, "@") || strings.HasPrefix(s, "__exit__") {
		return "", false, false
	}
	p, err := story.ResolvePath(n.Path, s)
	if err != nil || strings.Contains(p, "#") || p == "" && !tx.legacy {
		return "", false, false // the orchestrator path keeps the state a ".." above the top began in
	}
	return p, ix.byPath[p] != nil, true
}

// unknownAt is the state of its own the engines rest on at a path p the
// story does not hold: no view, arms, on_enter or timeout, under the
// deepest known dotted prefix of p (whose intents it takes: conformance
// start-under-known), or under none (it takes no intent); nil when that
// prefix is in a parallel state. One per path, so a move from p to p
// again stays.
func (ix *storyIndex) unknownAt(p string) *story.State {
	if u, ok := ix.unknown[p]; ok {
		return u
	}
	var parent *story.State
	if anc := ix.knownAncestor(p); anc != "" {
		parent = ix.byPath[anc]
		if parent == nil || inParallel(parent) {
			return nil
		}
	}
	u := &story.State{Path: p, Name: p[strings.LastIndexByte(p, '.')+1:], Parent: parent}
	if ix.unknown == nil {
		ix.unknown = map[string]*story.State{}
	}
	ix.unknown[p] = u
	return u
}

// initialLeaf is the state a move entering the compound d descends to
// by its templated initial:, which tx certainly renders before the arm's
// effects run (the engines pin it then: conformance
// ancestor-stay-initial-before-effects): the child it names, or, for a
// name d has no child of ("", k7, k5.7), the state of its own at that
// raw path below d, each known prefix entered on the way (conformance
// initial-template-unknown); nil when the render is not certain or the
// name holds a "#".
func (ix *storyIndex) initialLeaf(d *story.State, tx targetText) *story.State {
	if tx.render == nil || inParallel(d) {
		return nil
	}
	name, ok := tx.render(d.Initial(), &story.Transition{})
	name = strings.TrimSpace(name)
	if !ok || strings.Contains(name, "#") {
		return nil
	}
	p := d.Path + "." + name
	if c := ix.byPath[p]; c != nil {
		if c.Parent == d {
			return c
		}
		return nil // a dotted name the story holds deeper: a state of its own there, not followed
	}
	return ix.unknownAt(p)
}

// isUnknown reports a state unknownAt made.
func (ix *storyIndex) isUnknown(s *story.State) bool {
	return s != nil && ix.byPath[s.Path] != s
}

// unknownNote says, for a message, that s is a path the story does not
// hold; "" for a state of the story.
func (ix *storyIndex) unknownNote(s *story.State) string {
	if !ix.isUnknown(s) {
		return ""
	}
	under := "no dotted prefix of it is a state, so it takes no intent"
	if s.Parent != nil {
		under = fmt.Sprintf("it takes only the intents of %q, its deepest known dotted prefix, and its ancestors", s.Parent.Path)
	}
	return fmt.Sprintf(", a path the story does not hold that a templated target or initial: rendered, where the machine rests as the existing engine does: %s", under)
}

// renderedLeaf is where the settle walk's templated target src of arm a,
// declared at n and taken for t (nil: a hop), certainly lands: a leaf
// outside any parallel state (landingLeaf), or the state of its own of a
// path the story does not hold; nil when that is not certain.
func (w *settleWalk) renderedLeaf(n *story.State, src string, a *story.Transition, t *Turn) *story.State {
	ix := w.l.ix
	if w.cur != nil && ix.isUnknown(w.cur) {
		return nil // a move from a path the story does not hold is not followed here
	}
	p, known, ok := ix.renderedPath(n, src, a, w.l.targetRender(t))
	switch {
	case !ok:
		return nil
	case known:
		return ix.landingLeaf(p)
	}
	return ix.unknownAt(p)
}

// walkRest reports a state the settle walk may end its turn on: a leaf
// outside any parallel state, or the state of its own of a path the
// story does not hold (unknownAt).
func (ix *storyIndex) walkRest(s *story.State) bool {
	return ix.plainLeaf(s.Path) != nil || ix.isUnknown(s)
}
