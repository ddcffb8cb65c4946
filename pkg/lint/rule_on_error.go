package lint

import (
	"fmt"
	"kitsoki/internal/yamlnode"
	"slices"
	"sort"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleOnErrorTarget = &Rule{ID: "on-error-target", Severity: diag.Warning, LintOnly: true,
	Summary: "an on_error: target resolves (against the dispatch state) to a state; a dangling one can never fire",
	Example: "on_enter:\n  - {invoke: host.shell.run, on_error: eror}"}

// checkOnError: an on_error: target resolves, against the state the turn
// ends in (story-runtime.md §2.4), to a state. Upstream loads a story
// whose on_error dangles and drops the redirect at run time.
func (c *checker) checkOnError(e *story.Effect, site effSite) {
	target, done := c.onErrorWritten(e, site)
	if done {
		return
	}
	if p := nearest(site.State, func(s *story.State) bool { return s.Parallel }); p != nil && p != site.State && c.st.Imported() && !strings.ContainsAny(target, "./") && c.dispatchedInParallel(site) {
		c.importedParallelOnError(e, site, target, p)
	}
	if n := story.Climbs(target); c.st.Imported() && n > depthOf(site.State)+1 {
		c.onErrorAboveChild(e, site, target, n)
		return
	}
	if c.importedExitClimb(e, site, target) || c.importedDispatchClimb(e, site, target) {
		return
	}
	if !strings.HasPrefix(target, "..") { // absolute
		if _, err := c.st.ResolveFrom("", target); err != nil {
			c.onErrorDangles(e, site, target, strings.ReplaceAll(target, "/", "."), "", err)
		}
		return
	}
	// broken only when it resolves from none of the dispatch states
	bases := c.dispatchStates(site)
	if len(bases) == 0 {
		return
	}
	if exit, emit := c.exitFirst(site); exit != "" {
		c.exitClimb(e, site, target, exit, emit)
	} else if par, emit := c.parallelFirst(site); par != nil && c.parallelClimb(e, site, target, par, emit) {
		return
	}
	for _, base := range bases {
		kb := c.regionBase(base, site.State)
		if t, err := c.st.ResolveFrom(kb, target); err == nil && t.Kind == story.TargetState {
			if kb != base {
				c.parallelOnError(e, site, target, base, kb, t.Path)
			}
			return
		}
	}
	kb := c.regionBase(bases[0], site.State)
	if t, ok := c.climbedAboveTop(kb, target); ok {
		c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q climbs above the top level from the dispatch state %q: both engines stay at the top and name %q; write %q", site.String(), target, kb, t.Path, t.Path)
		return
	}
	_, err := c.st.ResolveFrom(kb, target)
	resolved, _ := story.ResolvePath(kb, target)
	c.onErrorDangles(e, site, target, resolved, kb, err)
}

// onErrorWritten checks an on_error target by how it is written: with
// whitespace around it, an @exit:, a template, empty or ".", a dotted path
// in a folded child, a written exit's state. It returns the trimmed target
// and whether it is settled; one left unsettled is resolved by climbing.
func (c *checker) onErrorWritten(e *story.Effect, site effSite) (target string, done bool) {
	if raw := e.OnError(); !story.IsTemplated(raw) && strings.TrimSpace(raw) != raw {
		// conformance on-error-untrimmed
		c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q names no state as written (the target is not trimmed): the redirect is dropped and the turn rests where the call was made; remove the whitespace around %q", site.String(), raw, strings.TrimSpace(raw))
		return "", true
	}
	target = strings.TrimSpace(e.OnError())
	if strings.HasPrefix(target, "@exit:") {
		if c.st.Imported() {
			// the fold maps it to the importing story's exits.<name>.to
			c.checkTarget(site.State, target, e.PosOf("on_error"), site.String()+": on_error: ", site.Place(), false)
			if to := c.rootExitTo(strings.TrimPrefix(target, "@exit:")); strings.HasPrefix(to, "@exit:") {
				// conformance on-error-exit-declared (README: mapped on)
				c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q is mapped by the importing story's exits to %q, an exit of the story run on its own, which an on_error never takes (both engines look it up as a state path); this on_error redirect can never fire: the rest of the block is skipped; map the exit to a state of the importing story", site.String(), target, to)
			}
			return "", true
		}
		// conformance on-error-exit-undeclared
		c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q names no state: an on_error is never mapped to an exit in a story run on its own (both engines look it up as a state path, whether or not exits: declares %q); this on_error redirect can never fire: the rest of the block is skipped; to leave after a failure, drop on_error and guard an arm on world.last_error that targets %q (an imported story's on_error @exit: is mapped by the importing story's exits:)", site.String(), target, strings.TrimPrefix(target, "@exit:"), target)
		return "", true
	}
	if tagOnly(target) || story.IsTemplated(target) {
		// conformance on-error-template-literal
		c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q is never rendered (both engines look an on_error target up as written), so it names no state; this on_error redirect can never fire: the rest of the block is skipped; name one state, and let that state's on_enter choose where to go", site.String(), target)
		return "", true
	}
	if target == "" || target == "." {
		return "", true
	}
	if foldedAbsolute(c.st, target) { // rule_target_folded.go
		if path := strings.ReplaceAll(target, "/", "."); !c.src.inFolded(foldedTop(c.st), path, 0) {
			from, maxClimb := c.onErrorFrom(site)
			c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q names no state once this imported story is folded (a dotted target is kept as written, so it names the importing story's tree); this on_error redirect can never fire: the rest of the block is skipped; %s", site.String(), target, c.foldedFix(site.State, from, maxClimb, path))
		}
		return "", true
	}
	if name, ok := strings.CutPrefix(target, "__exit__"); ok && c.writesExit(name) {
		// conformance on-error-exit-state: the state upstream's loader
		// makes for a written @exit:NAME target
		return "", true
	}
	return target, false
}

// rootExitTo is the exits.<name>.to (trimmed) that maps this imported
// story's exit name when the story importing it is run on its own ("":
// none, or an importer that is imported too).
func (c *checker) rootExitTo(name string) string {
	parent := c.st.Importer()
	if parent == nil || parent.Imported() {
		return ""
	}
	for _, alias := range parent.ImportOrder {
		if im := parent.Imports[alias]; im != nil && im.Child == c.st && im.Exits[name] != nil {
			return strings.TrimSpace(im.Exits[name].To)
		}
	}
	return ""
}

// regionBase is the state kitsoki climbs from for an on_error "../"
// dispatched at base: base, or inside a parallel state the leaf of the
// region that declares the effect.
func (c *checker) regionBase(base string, decl *story.State) string {
	root, leaves, ok := strings.Cut(base, "#")
	if !ok || decl == nil || !strings.HasPrefix(decl.Path, root+".") {
		return base
	}
	region, _, _ := strings.Cut(strings.TrimPrefix(decl.Path, root+"."), ".")
	for _, l := range strings.Split(leaves, "|") {
		if l == root+"."+region || strings.HasPrefix(l, root+"."+region+".") {
			return l
		}
	}
	return base
}

// parallelOnError reports a "../" on_error inside a parallel state, which
// the engines climb from differently (story-runtime.md §6.3 example B).
func (c *checker) parallelOnError(e *story.Effect, site effSite, target, base, kb, to string) {
	upstream, _ := story.ResolvePath(base, target)
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q inside a parallel state: kitsoki climbs from the region's leaf %q to %q, but the existing engine climbs from the whole parallel state %q and lands on the corrupt path %q (its lookup stops at \"#\"); did you mean `%s`? (absolute, it means the same to both)", site.String(), target, kb, to, base, upstream, to)
}

// importedParallelOnError reports a bare on_error inside a parallel state
// of an imported story: the fold writes it as a "../" chain from the
// declaring state, which the engines climb differently (parallelOnError),
// and no spelling means the same to both there (a dotted one names the
// importer's tree). Kitsoki climbs it from the region's leaf, one level
// deeper than a region compound or an arc's state the call is declared on,
// so there the chain stops short of this story's state (probed: the region p.ra's on_enter, "../../failed" from kid.p.ra.x
// names kid.p.failed, and kitsoki stays in the parallel state).
func (c *checker) importedParallelOnError(e *story.Effect, site effSite, target string, p *story.State) {
	folded := strings.Repeat("../", strings.Count(site.State.Path, ".")+1) + target
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q inside the parallel state %q of an imported story: the fold writes it as %q; %s, but the existing engine climbs from the whole parallel state's encoded path and lands on a path that is not a state; no spelling means the same to both here: move the call out of the parallel state", site.String(), target, p.Path, folded, c.kitsokiParallelClimb(site, target, folded))
}

// dispatchedInParallel reports whether the call at site is dispatched in
// a parallel configuration (or where, no dispatch state tells): an arc's
// effects run at its destination, which may lie outside it.
func (c *checker) dispatchedInParallel(site effSite) bool {
	bases := c.dispatchStates(site)
	return len(bases) == 0 || slices.ContainsFunc(bases, func(b string) bool { return strings.Contains(b, "#") })
}

// kitsokiParallelClimb says where kitsoki's climb of the folded on_error
// at site takes it, from the region's leaf of its first dispatch state.
func (c *checker) kitsokiParallelClimb(site effSite, target, folded string) string {
	bases := c.dispatchStates(site)
	if len(bases) == 0 {
		return fmt.Sprintf("kitsoki climbs from the region's leaf to this story's %q", target)
	}
	prefix := foldedPrefix(c.st)
	leaf := prefix + "." + c.regionBase(bases[0], site.State)
	lands, _ := story.ClimbPath(leaf, folded)
	switch {
	case lands == prefix+"."+target:
		return fmt.Sprintf("kitsoki climbs from the region's leaf %q to this story's %q", leaf, target)
	case c.src.inFolded(foldedTop(c.st), lands, 0):
		return fmt.Sprintf("kitsoki climbs from the region's leaf %q to %q, not this story's %q", leaf, lands, target)
	}
	return fmt.Sprintf("kitsoki climbs from the region's leaf %q to %q, which is not a state, so it drops the redirect and stays in the parallel state", leaf, lands)
}

func (c *checker) onErrorDangles(e *story.Effect, site effSite, target, resolved, base string, err error) {
	if te, ok := err.(*story.TargetError); ok && strings.Contains(te.Msg, "reaches into the imported child") {
		c.rep.ErrAt(e.PosOf("on_error"), site.Place(), ruleTarget, "%s: on_error: %s", site.String(), te.Msg)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: on_error %q ", site.String(), target)
	if te, ok := err.(*story.TargetError); ok && te.Msg != "" && !strings.Contains(te.Msg, "does not exist") {
		fmt.Fprintf(&b, "is broken: %s", te.Msg)
	} else if base != "" {
		from := "the state the turn ends in"
		if site.OnComplete {
			from = "the job's origin, where the session was when the job was submitted"
		}
		fmt.Fprintf(&b, "resolves against the dispatch state %q (%s, not the declaring state) to %q, which is not a state", base, from, resolved)
	} else {
		fmt.Fprintf(&b, "resolves to %q, which is not a state", resolved)
	}
	b.WriteString("; this on_error redirect can never fire: the rest of the block is skipped")
	// did you mean the target resolved against the declaring state, or a
	// state named like it?
	var sug string
	if site.State != nil {
		if t, err := site.State.Resolve(target); err == nil && t.Kind == story.TargetState && t.Path != resolved {
			sug = t.Path
		}
	}
	if sug == "" {
		last := resolved
		if i := strings.LastIndexAny(last, ".|#"); i >= 0 {
			last = last[i+1:]
		}
		sug = c.nearState(site.State, resolved, last)
	}
	if sug != "" {
		from, maxClimb := c.onErrorFrom(site)
		b.WriteString("; " + yamlnode.Meant(spelled(c.st, from, sug, maxClimb)))
	}
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s", b.String())
}

// onErrorFrom is the state path an on_error "../" chain written at site
// climbs from (its one dispatch state), and how far the fold lets it
// climb (spelled); maxClimb is -1 when the call is dispatched in more
// than one state, or an encoded one, where no chain names one state.
func (c *checker) onErrorFrom(site effSite) (from string, maxClimb int) {
	if site.State == nil {
		return "", -1
	}
	bases := c.dispatchStates(site)
	if len(bases) != 1 || strings.ContainsAny(bases[0], "#|") || strings.HasPrefix(bases[0], "__exit__") {
		return site.State.Path, -1
	}
	return bases[0], depthOf(site.State) + 1
}

// onErrorAboveChild reports an imported story's on_error "../" chain with
// more segments than the fold's depth check allows (n > depth+1): upstream
// refuses the importing story at load ("walks above the child's
// namespace"), as pkg/fold does for run and test.
func (c *checker) onErrorAboveChild(e *story.Effect, site effSite, target string, n int) {
	fix := "name a state of this story (a top-level one by its bare name), or leave it through an exit mapped by the importing story"
	if p, _ := story.ClimbPath(site.State.Path, target); c.st.State(p) != nil {
		fix = yamlnode.Meant(spelledFrom(c.st, site.State, p))
	}
	c.rep.ErrAt(e.PosOf("on_error"), site.Place(), ruleTarget, "%s: on_error %q walks above this imported story's namespace (depth %d, %d `..` segments): the importing story is refused at load (cross-boundary parent targets are forbidden); %s", site.String(), target, depthOf(site.State), n, fix)
}

// nearState suggests a state for a dangling target: the closest path, or a
// sibling (or cousin) of from whose name is the target's last segment.
func (c *checker) nearState(from *story.State, resolved, last string) string {
	// a state named last among the declaring state's and its ancestors'
	// children comes before a path one letter off: "../z" from p.rc.d1.y
	// means p.rc.z, not p.rc.d1.y
	for cur := from; cur != nil; cur = cur.Parent {
		for _, ch := range cur.Children {
			if ch.Name == last && ch.Path != resolved {
				return ch.Path
			}
		}
	}
	if s := c.suggest(resolved, c.statePaths()); s != "" {
		return s
	}
	var names []string
	for _, s := range c.states() {
		if s.Name == last {
			names = append(names, s.Path)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return ""
}

// jobOrigins are the states a job's on_complete chain (site) dispatches its
// calls at: the completion's origin, where the session was when the
// outermost background call was submitted, which is that call's own
// dispatch state (an arm's destination, a compound's initial leaf), not
// the declaring state (conformance oncomplete-origin-climb: a compound
// h's on_enter job climbs its on_error from h.c; g.c's arm to y from y). An on_exit
// call, and one dispatched at an exit, keep the declaring state.
func (c *checker) jobOrigins(site effSite) []string {
	root := site.EffectPlace
	for root.Parent != nil {
		root = root.Parent
	}
	if root.List == "on_exit" {
		return []string{site.State.Path}
	}
	out := c.dispatchStates(effSite{EffectPlace: root, Inline: root.Within("effects"), Template: site.Template})
	if len(out) == 0 || strings.HasPrefix(out[0], "__exit__") {
		return []string{site.State.Path}
	}
	return out
}

// dispatchStates lists the statically known states a turn can end in when
// the effect at site is dispatched (story-runtime.md §2.1).
func (c *checker) dispatchStates(site effSite) []string {
	s := site.State
	if exit, _ := c.exitFirst(site); exit != "" {
		return []string{"__exit__" + exit}
	}
	switch {
	case s == nil:
		return nil
	case site.OnComplete:
		return c.jobOrigins(site)
	case site.Intent != "":
		var out []string
		for _, t := range s.Arms(site.Intent) {
			dest := s
			if tg, err := s.Resolve(t.Target); err == nil && tg.Kind == story.TargetState && tg.State != nil && tg.State.Import == nil {
				dest = tg.State
			} else if err != nil || (tg.Kind != story.TargetStay && tg.Kind != story.TargetState) {
				continue
			}
			out = append(out, c.settled(dest))
		}
		return out
	}
	// on_enter runs on the way to s's initial leaf or any state below it
	out := []string{c.settled(s)}
	seen := map[string]bool{out[0]: true}
	c.eachTransition(func(from *story.State, _ string, _ int, t *story.Transition) {
		tg, err := from.Resolve(t.Target)
		if err != nil || tg.Kind != story.TargetState || tg.State == nil || tg.State.Import != nil {
			return
		}
		if tg.State != s && !strings.HasPrefix(tg.State.Path+".", s.Path+".") {
			return
		}
		if b := c.settled(tg.State); !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	})
	return out
}

// settled is where entering s comes to rest, encoded inside a parallel
// state.
func (c *checker) settled(s *story.State) string {
	leaf := c.descend(s)
	if p := nearest(leaf, func(s *story.State) bool { return s.Parallel }); p != nil {
		return c.encodeParallel(p, leaf)
	}
	return leaf.Path
}

func (c *checker) descend(s *story.State) *story.State {
	for depth := 0; s != nil && !s.Parallel && len(s.Children) > 0 && depth < 64; depth++ {
		if s.Initial() == "" || story.IsTemplated(s.Initial()) {
			return s
		}
		next := c.st.StateAt(s.Path + "." + s.Initial())
		if next == nil {
			return s
		}
		s = next
	}
	return s
}

// encodeParallel renders the session state of a parallel root p with one
// region at leaf and the others at their initial leaves (§3.2).
func (c *checker) encodeParallel(p, leaf *story.State) string {
	var leaves []string
	for _, region := range p.Children {
		l := c.descend(region)
		if strings.HasPrefix(leaf.Path+".", region.Path+".") {
			l = leaf
		}
		if l.Parallel {
			l = region
		}
		leaves = append(leaves, l.Path)
	}
	sort.Strings(leaves)
	return p.Path + "#" + strings.Join(leaves, "|")
}

// writesExit reports whether an arm or a timeout of the story targets
// "@exit:name" as written (not templated): upstream's loader then holds a
// state "__exit__name", which an on_error can name.
func (c *checker) writesExit(name string) bool {
	want := "@exit:" + name
	for _, s := range c.states() {
		if t := s.Timeout(); t != nil && strings.TrimSpace(t.Target) == want {
			return true
		}
		for _, on := range s.On {
			for _, a := range on.Arms {
				if strings.TrimSpace(a.Target) == want {
					return true
				}
			}
		}
	}
	return false
}

// exitFirst names the exit a leaf state's on_enter takes before the call
// at site is dispatched: its first emit_intent (written, unguarded), before
// or after the call, whose first arm (unguarded) targets @exit:NAME: the
// emits hop at machine time, the calls are dispatched after them
// (story-runtime.md §1.10). The call then fails at the
// exit, and an on_error "../" climbs from __exit__NAME in both engines
// (conformance exit-redirect-climb). An imported story's exits are the
// importer's to map: none is named there (importedExitClimb follows the
// mapping), nor inside a parallel state, where upstream takes no such hop.
func (c *checker) exitFirst(site effSite) (exit, emit string) {
	if c.st.Imported() {
		return "", ""
	}
	return exitHop(site)
}

// exitHop is exitFirst in any story: the exit a leaf's on_enter takes,
// through an emit_intent written anywhere in it, before the call at site
// is dispatched (conformance exit-redirect-climb; probed: a call written
// before the emit climbs from the exit too).
func exitHop(site effSite) (exit, emit string) {
	for _, prev := range hopList(site) {
		name := strings.TrimSpace(prev.EmitIntent())
		if name == "" || prev.When != "" || story.IsTemplated(name) {
			continue
		}
		if x := armExit(site.State, name); x != "" {
			return x, name
		}
		return "", "" // the first hop goes elsewhere
	}
	return "", ""
}

// mayExitHop is exitHop for a templated emit_intent: the first unguarded
// emit of the on_enter, when it is templated and one of the names it
// quotes (renders) takes an exit, as `{{ world.last_error != ” ? 'ping'
// : ” }}` does once an earlier call failed (conformance
// swallowed-pass-exit-origin-imported).
func mayExitHop(site effSite) (exit, emit, renders string) {
	for _, prev := range hopList(site) {
		name := strings.TrimSpace(prev.EmitIntent())
		if name == "" || prev.When != "" {
			continue
		}
		if !story.IsTemplated(name) {
			return "", "", ""
		}
		for _, q := range quotedNames(name) {
			if x := armExit(site.State, q); x != "" {
				return x, name, q
			}
		}
	}
	return "", "", ""
}

// hopList is the on_enter whose emits hop before the call at site is
// dispatched: a leaf's, outside any parallel state (nil otherwise).
func hopList(site effSite) []*story.Effect {
	s := site.State
	if s == nil || site.Parent != nil || site.List != "on_enter" || len(s.Children) > 0 || site.Index > len(s.OnEnter) {
		return nil
	}
	if nearest(s, func(s *story.State) bool { return s.Parallel }) != nil {
		return nil
	}
	return s.OnEnter
}

// armExit is the exit NAME that s's first arm for intent targets, written
// and unguarded ("" when it goes elsewhere or is guarded).
func armExit(s *story.State, intent string) string {
	if arms := s.Arms(intent); len(arms) > 0 && arms[0].When == "" {
		if x, ok := strings.CutPrefix(strings.TrimSpace(arms[0].Target), "@exit:"); ok && !story.IsTemplated(x) {
			return x
		}
	}
	return ""
}

// exitClimb reports a "../" on_error whose call is dispatched at an exit
// (exitFirst) when it names another state than it would from the state
// that makes the call; one that names none there is onErrorDangles'.
func (c *checker) exitClimb(e *story.Effect, site effSite, target, exit, emit string) {
	base := "__exit__" + exit
	t, err := c.st.ResolveFrom(base, target)
	if err != nil || t.Kind != story.TargetState {
		return
	}
	here, _ := story.ResolvePath(site.State.Path, target)
	if here == t.Path {
		return
	}
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q is dispatched at the exit: emit_intent %q takes @exit:%s before any call of the state is dispatched, so both engines climb from %q to %q, not from %q to %q; name the state absolutely (`%s`)", site.String(), target, emit, exit, base, t.Path, site.State.Path, here, here)
}

// climbedAboveTop resolves an on_error "../" target whose segments climb
// above the top level from base as both engines do at run time: clamped
// at the top (conformance on-error-climb-above-top); ok is false when it
// does not climb that far or names no state there.
func (c *checker) climbedAboveTop(base, target string) (story.Target, bool) {
	p, within := story.ClimbPath(base, target)
	if within || p == "" {
		return story.Target{}, false
	}
	t, err := c.st.ResolveFrom("", p)
	return t, err == nil && t.Kind == story.TargetState
}

// parallelFirst is the parallel state the first unguarded emit_intent of
// the call's on_enter (a leaf's, outside any parallel state) takes the
// session into, and that intent: the hops settle before the calls, so the
// call is dispatched in its configuration (conformance
// on-error-climb-parallel).
func (c *checker) parallelFirst(site effSite) (par *story.State, emit string) {
	s := site.State
	if s == nil || site.Parent != nil || site.List != "on_enter" || len(s.Children) > 0 || site.Index > len(s.OnEnter) {
		return nil, ""
	}
	if nearest(s, func(s *story.State) bool { return s.Parallel }) != nil {
		return nil, ""
	}
	for _, prev := range s.OnEnter {
		name := strings.TrimSpace(prev.EmitIntent())
		if name == "" || prev.When != "" || story.IsTemplated(name) {
			continue
		}
		if arms := s.Arms(name); len(arms) > 0 && arms[0].When == "" {
			if t, err := s.Resolve(arms[0].Target); err == nil && t.Kind == story.TargetState && t.State != nil && t.State.Parallel {
				return t.State, name
			}
		}
		return nil, "" // the first hop goes elsewhere
	}
	return nil, ""
}

// parallelClimb reports a "../" on_error whose call is dispatched in a
// parallel configuration (parallelFirst) when both engines climb from the
// configuration's encoded path, as a string, to a path inside it that
// names no state (they rest on it); false when the climb leaves it.
func (c *checker) parallelClimb(e *story.Effect, site effSite, target string, par *story.State, emit string) bool {
	base := c.settled(par)
	there, _ := story.ClimbPath(base, target)
	if !strings.Contains(there, "#") {
		return false
	}
	here, err := story.ResolvePath(site.State.Path, target)
	if t, ok := c.climbedAboveTop(site.State.Path, target); err != nil && ok {
		here = t.Path
	}
	c.rep.WarnAt(e.PosOf("on_error"), site.Place(), ruleOnErrorTarget, "%s: on_error %q is dispatched in the parallel state %q: emit_intent %q before it enters it, so both engines climb from its encoded path %q, as a string, to %q, not from %q to %q; name the state absolutely (`%s`)", site.String(), target, par.Path, emit, base, there, site.State.Path, here, here)
	return true
}
