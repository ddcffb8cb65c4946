package flowtest

import (
	"slices"
	"strings"

	"kitsoki/pkg/story"
)

// maxRedirectHops bounds how many on_error redirects in a row the rest
// follows: a longer chain is not judged (the engines stop a chain at
// its sixth redirect, story-runtime §2.4).
const maxRedirectHops = 3

// redirecting reports a foreground host call whose on_error may redirect
// the machine when it fails, and which does nothing else that may move it
// (no emit, target, nested effects or background job): on the
// orchestrator path such a call either lands normally or moves the
// machine, flat, to its on_error target (story-runtime §2.3, §2.4).
func redirecting(e *story.Effect) bool {
	return e.Invoke != "" && e.OnError() != "" && e.EmitIntent() == "" && e.Target() == "" &&
		len(e.Effects()) == 0 && !e.Background() && len(e.OnComplete()) == 0 && e.Agent() == ""
}

// orRedirect is still, widened to the calls that may only redirect.
func orRedirect(still func(*story.Effect) bool) func(*story.Effect) bool {
	return func(e *story.Effect) bool { return still(e) || redirecting(e) }
}

// redirects adds to alt the states the redirecting calls of effs, made
// while the machine rests at d (the dispatch state their ../ targets
// resolve against), may move it to when they fail, each followed
// through its own on_enter's redirects; ok is false when some effect is
// neither still nor redirecting, or a redirect lands where the rest is
// not certain (a templated or @exit: target, no plain leaf, an on_enter
// that may move it otherwise, too long a chain).
func (ix *storyIndex) redirects(effs []*story.Effect, d *story.State, still func(*story.Effect) bool, alt []*story.State, hops int) ([]*story.State, bool) {
	for _, e := range effs {
		if e == nil || still(e) {
			continue
		}
		if !redirecting(e) || hops >= maxRedirectHops {
			return nil, false
		}
		tt := strings.TrimSpace(e.OnError())
		if story.IsTemplated(tt) || strings.HasPrefix(tt, "@exit:") {
			return nil, false
		}
		p, err := story.ResolvePath(d.Path, tt)
		if err != nil || ix.byPath[p] == nil {
			return nil, false // a target that names no state rests where it is, with no view: not judged
		}
		if p == d.Path {
			continue // a redirect to the dispatch state moves nothing
		}
		t := ix.plainLeaf(p) // entered flat: only its own on_enter runs
		if t == nil {
			return nil, false
		}
		if !slices.Contains(alt, t) {
			alt = append(alt, t)
		}
		var ok bool
		if alt, ok = ix.redirects(t.OnEnter, t, still, alt, hops+1); !ok {
			return nil, false
		}
	}
	return alt, true
}

// entryRedirects is redirects over the on_enter chains of d and its
// ancestors, outermost first, as the engines dispatch them.
func (ix *storyIndex) entryRedirects(d *story.State, still func(*story.Effect) bool, alt []*story.State) ([]*story.State, bool) {
	var chain []*story.State
	for s := d; s != nil; s = s.Parent {
		chain = append(chain, s)
	}
	slices.Reverse(chain)
	for _, s := range chain {
		var ok bool
		if alt, ok = ix.redirects(s.OnEnter, d, still, alt, 0); !ok {
			return nil, false
		}
	}
	return alt, true
}
