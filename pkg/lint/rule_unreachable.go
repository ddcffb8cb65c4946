package lint

import (
	"fmt"
	"slices"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleUnreachable = &Rule{ID: "unreachable", Severity: diag.Warning, LintOnly: true,
	Summary: "a state cannot be reached from root (literal targets and templated targets with statically known values)",
	Example: "states:\n  start: {}\n  orphan: {}"}

var (
	quotedRe   = &lazyre.Regexp{Expr: `'([^']*)'|"([^"]*)"`}
	worldRefRe = &lazyre.Regexp{Expr: `\bworld\.([A-Za-z_][A-Za-z0-9_]*)`}
	tagRe      = &lazyre.Regexp{Expr: `\{\{.*?\}\}|\{%.*?%\}`}
	// runtimeRootRe finds template roots known only at run time.
	runtimeRootRe = &lazyre.Regexp{Expr: `\b(slots|args|result|item|event|proposal|state)\b`}
	filterRe      = &lazyre.Regexp{Expr: `\|\s*([A-Za-z_][A-Za-z0-9_]*)`} // pongo2 filters
)

// checkUnreachable warns about states no path from root can enter. A
// templated target counts for every value it can statically take
// (templateTargets); one whose values cannot be known makes it give up.
func checkUnreachable(c *checker) {
	st := c.st
	if st.Imported() || st.Root == "" || st.StateAt(st.Root) == nil || st.Phases != nil {
		return
	}
	w := &reachWalk{c: c, st: st, reached: map[*story.State]bool{}, vals: c.worldValues()}
	w.enter(st.StateAt(st.Root))
	if r := st.Routing; r != nil && r.FreeFormFallbackState != "" {
		w.enter(st.StateAt(r.FreeFormFallbackState))
	}
	for _, im := range st.Imports {
		for _, ex := range im.Exits {
			if ex.To != "" {
				w.enter(st.State(ex.To))
			}
		}
	}
	w.exitClimbs(st, map[*story.Story]bool{})
	for len(w.queue) > 0 && !w.giveUp {
		s := w.queue[0]
		w.queue = w.queue[1:]
		w.visit(s)
	}
	if w.giveUp {
		return
	}
	for _, s := range st.AllStates() {
		if !w.reached[s] {
			c.rep.WarnAt(s.Pos, diag.StatePlace(s.Path), ruleUnreachable, "state %q is unreachable from root %q: no transition, on_error, timeout or on_complete target leads to it", s.Path, st.Root)
		}
	}
}

// reachWalk is checkUnreachable's breadth-first walk from root.
type reachWalk struct {
	c       *checker
	st      *story.Story
	reached map[*story.State]bool
	queue   []*story.State
	giveUp  bool
	vals    *staticValues
}

// enter marks s reached with its ancestors and the children entering it
// enters.
func (w *reachWalk) enter(s *story.State) {
	if s == nil || w.reached[s] {
		return
	}
	w.reached[s] = true
	w.queue = append(w.queue, s)
	for p := s.Parent; p != nil; p = p.Parent {
		w.enter(p)
	}
	switch {
	case s.Parallel || story.IsTemplated(s.Initial()):
		for _, ch := range s.Children {
			w.enter(ch)
		}
	case s.Initial() != "":
		w.enter(w.st.StateAt(s.Path + "." + s.Initial()))
	}
}

// visit follows every target of a reached state: arcs, effects' on_error
// and target:, and its timeout's.
func (w *reachWalk) visit(s *story.State) {
	for _, on := range s.On {
		for _, t := range on.Arms {
			w.follow(s, t.Target)
		}
	}
	for p := range (story.EffectWalk{}).States(s) {
		if on := p.Effect.OnError(); on != "" {
			w.onError(effSite{EffectPlace: p, OnComplete: p.Within("on_complete")}, on)
		}
		if tg := p.Effect.Target(); tg != "" {
			w.follow(s, tg)
		}
	}
	if s.Timeout() != nil {
		w.follow(s, s.Timeout().Target)
	}
}

// follow enters what target, written in from, leads to.
func (w *reachWalk) follow(from *story.State, target string) {
	if story.TemplatedAt(story.FieldTarget, target) {
		names, known := w.vals.templateTargets(target)
		if !known {
			w.giveUp = true
		}
		for _, name := range names {
			if t, err := from.Resolve(name); err == nil && t.State != nil {
				w.enter(t.State)
			}
		}
		return
	}
	t, err := from.Resolve(target)
	if err != nil {
		w.giveUp = true // a broken target is reported by its own rule
		return
	}
	if t.State != nil {
		w.enter(t.State)
	}
}

// onError follows an on_error target; a "../" one climbs from the states
// the turn can end in (rule_on_error.go).
func (w *reachWalk) onError(site effSite, target string) {
	if story.IsTemplated(target) {
		return // never rendered, it names no state (conformance on-error-template-literal)
	}
	if !strings.HasPrefix(strings.TrimSpace(target), "..") {
		w.follow(site.State, target)
		return
	}
	for _, base := range w.c.dispatchStates(site) {
		kb := w.c.regionBase(base, site.State)
		if t, err := w.st.ResolveFrom(kb, target); err == nil && t.State != nil {
			w.enter(t.State)
		} else if t, ok := w.c.climbedAboveTop(kb, target); ok && t.State != nil {
			w.enter(t.State)
		}
	}
}

// staticValues holds, per world key, the string values it can take: its
// default and every literal set:; other writes make them unknown.
type staticValues struct {
	vals    map[string][]string
	unknown map[string]bool
}

func (c *checker) worldValues() *staticValues {
	sv := &staticValues{vals: map[string][]string{}, unknown: map[string]bool{}}
	for _, w := range c.st.World {
		if w.HasDefault {
			if s, ok := w.Default.(string); ok {
				sv.vals[w.Name] = append(sv.vals[w.Name], s)
			}
		}
		for _, v := range w.Values {
			sv.vals[w.Name] = append(sv.vals[w.Name], fmt.Sprint(v))
		}
	}
	c.eachEffect(func(e *story.Effect, _ effSite) {
		for _, kv := range e.Set {
			v, ok := kv.Value.(string) // a literal string is its one value
			names := []string{v}
			if ok && story.IsTemplated(v) {
				names, ok = sv.fromTemplate(v)
			}
			if ok {
				sv.vals[kv.Key] = append(sv.vals[kv.Key], names...)
			} else {
				sv.unknown[kv.Key] = true
			}
		}
		for _, kv := range slices.Concat(e.Bind(), e.Increment()) {
			sv.unknown[kv.Key] = true
		}
	})
	for _, im := range c.st.Imports {
		for _, ex := range im.Exits {
			for _, kv := range ex.Set {
				sv.unknown[kv.Key] = true
			}
		}
	}
	return sv
}

// fromTemplate returns the quoted names of a set: template such as
// "{{ 'a' }}"; false when it reads state.
func (sv *staticValues) fromTemplate(tpl string) ([]string, bool) {
	if strings.Contains(tpl, "slots.") || strings.Contains(tpl, "result") || (strings.Contains(tpl, "world.") && worldRefRe.MatchString(tpl)) {
		return nil, false
	}
	out := quotedNames(tpl)
	return out, len(out) > 0
}

// quotedNames lists the '…' and "…" strings of tpl.
func quotedNames(tpl string) []string {
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(tpl, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

// templateTargets lists the values a templated target can render to (its
// literal text, quoted names and the values of world keys it reads), and
// whether that list is complete.
func (sv *staticValues) templateTargets(tpl string) ([]string, bool) {
	known := true
	out := quotedNames(tpl)
	if lit := strings.TrimSpace(tagRe.ReplaceAllString(tpl, " ")); lit != "" {
		out = append(out, strings.Fields(lit)...)
	}
	for _, tag := range tagRe.FindAllString(tpl, -1) {
		if strings.HasPrefix(tag, "{%") {
			continue // a control tag prints nothing itself
		}
		for _, m := range filterRe.FindAllStringSubmatch(tag, -1) {
			if m[1] != "default" && m[1] != "default_if_none" {
				known = false // a filter turns the values into others
			}
		}
		refs := worldRefRe.FindAllStringSubmatch(tag, -1)
		rest := worldRefRe.ReplaceAllString(quotedRe.ReplaceAllString(tag, ""), "")
		for _, r := range refs {
			k := r[1]
			if sv.unknown[k] || (len(sv.vals[k]) == 0) {
				known = false
			}
			out = append(out, sv.vals[k]...)
		}
		// anything else the tag reads (slots.x, args.y, a bare variable)
		if runtimeRootRe.MatchString(rest) {
			known = false
		}
		if len(refs) == 0 && !quotedRe.MatchString(tag) {
			known = false
		}
	}
	return out, known
}

// exitClimbs enters the states of the top story that an imported story's
// on_error, dispatched at the exit its hop took, climbs to once folded
// (importedExitLanding), or from a dispatch state of another depth than
// the declaring state's (importedDispatchLanding): the child's bare "x"
// can name the top story's x.
// Each imported story is looked at once, however often the tree repeats it.
func (w *reachWalk) exitClimbs(st *story.Story, seen map[*story.Story]bool) {
	for _, alias := range st.ImportOrder {
		im := st.Imports[alias]
		if im == nil || im.Child == nil || seen[im.Child] {
			continue
		}
		seen[im.Child] = true
		child := &checker{st: im.Child, opts: w.c.opts}
		for _, s := range im.Child.AllStates() {
			for p := range (story.EffectWalk{}).States(s) {
				on := strings.TrimSpace(p.Effect.OnError())
				if on == "" {
					continue
				}
				if l, ok := importedExitLanding(im.Child, effSite{EffectPlace: p}, on); ok {
					w.enter(w.st.State(l.lands))
				} else if l, ok := child.importedDispatchLanding(effSite{EffectPlace: p}, on); ok {
					w.enter(w.st.State(l.lands))
				}
			}
		}
		w.exitClimbs(im.Child, seen)
	}
}
