package story

import (
	"fmt"
	"strings"

	"kitsoki/internal/lazyre"
)

var (
	quotedRe = &lazyre.Regexp{Expr: `'([^']*)'|"([^"]*)"`}
	// worldRefRe finds the world keys a template reads.
	worldRefRe = &lazyre.Regexp{Expr: `\bworld\.([A-Za-z_][A-Za-z0-9_]*)`}
	// tagRe matches one {{ }} or {% %} tag.
	tagRe = &lazyre.Regexp{Expr: `\{\{.*?\}\}|\{%.*?%\}`}
	// runtimeRootRe finds template roots whose values are only known at run
	// time.
	runtimeRootRe = &lazyre.Regexp{Expr: `\b(slots|args|result|item|event|proposal|state)\b`}
	// filterRe finds the pongo2 filters of a {{ }} tag.
	filterRe = &lazyre.Regexp{Expr: `\|\s*([A-Za-z_][A-Za-z0-9_]*)`}
)

// checkUnreachable warns about states no path from root can enter.
// Every transition of a reachable state counts (any intent may arrive).
// A templated target counts for every value it can statically take
// (templateTargets): the quoted names and literal text it holds, and every
// value of the world keys it reads (their default and every literal set:).
// Only a template whose values cannot be known (it reads slots, a bound or
// computed world key, ...) makes the check give up.
func checkUnreachable(c *checker) {
	st := c.st
	if st.child || st.Root == "" || st.byPath[st.Root] == nil || st.Phases != nil {
		return
	}
	reached := map[*State]bool{}
	var queue []*State
	var enter func(s *State)
	enter = func(s *State) {
		if s == nil || reached[s] {
			return
		}
		reached[s] = true
		queue = append(queue, s)
		for p := s.Parent; p != nil; p = p.Parent {
			enter(p)
		}
		if s.Parallel {
			for _, ch := range s.Children {
				enter(ch)
			}
		} else if s.Initial != "" {
			if isTemplated(s.Initial) {
				for _, ch := range s.Children {
					enter(ch)
				}
			} else {
				enter(st.byPath[s.Path+"."+s.Initial])
			}
		}
	}
	giveUp := false
	vals := c.worldValues()
	follow := func(from *State, target string) {
		if isTemplated(target) {
			names, known := vals.templateTargets(target)
			if !known {
				giveUp = true
			}
			for _, name := range names {
				if t, err := from.Resolve(name); err == nil && t.State != nil {
					enter(t.State)
				}
			}
			return
		}
		t, err := from.Resolve(target)
		if err != nil {
			giveUp = true // a broken target is reported by its own rule
			return
		}
		if t.State != nil {
			enter(t.State)
		}
	}
	enter(st.byPath[st.Root])
	if r := st.Routing; r != nil && r.FreeFormFallbackState != "" {
		enter(st.byPath[r.FreeFormFallbackState])
	}
	for _, im := range st.Imports {
		for _, ex := range im.Exits {
			if ex.To != "" {
				enter(st.State(ex.To))
			}
		}
	}
	// onError follows an on_error target: a "../" one climbs from the
	// states the turn can end in (rule_on_error.go), like the engine.
	onError := func(site effSite, target string) {
		if !strings.HasPrefix(strings.TrimSpace(target), "..") {
			follow(site.State, target)
			return
		}
		for _, base := range c.dispatchStates(site) {
			if t, err := st.ResolveFrom(c.regionBase(base, site.State), target); err == nil && t.State != nil {
				enter(t.State)
			}
		}
	}
	var effTargets func(site effSite, list []*Effect)
	effTargets = func(site effSite, list []*Effect) {
		for _, e := range list {
			if e.OnError() != "" {
				onError(site, e.OnError())
			}
			if e.Target() != "" {
				follow(site.State, e.Target())
			}
			oc := site
			oc.OnComplete = true
			effTargets(oc, e.OnComplete())
			effTargets(site, e.Effects())
		}
	}
	for len(queue) > 0 && !giveUp {
		s := queue[0]
		queue = queue[1:]
		for _, on := range s.On {
			in := on.Intent
			for _, t := range on.Arms {
				follow(s, t.Target)
				effTargets(effSite{State: s, Intent: in}, t.Effects)
			}
		}
		effTargets(effSite{State: s}, s.OnEnter)
		effTargets(effSite{State: s}, s.OnExit())
		if s.Timeout() != nil {
			follow(s, s.Timeout().Target)
		}
	}
	if giveUp {
		return
	}
	for _, s := range st.AllStates() {
		if !reached[s] {
			c.rep.warnf(s.Pos, ruleUnreachable, "state %q is unreachable from root %q: no transition, on_error, timeout or on_complete target leads to it", s.Path, st.Root)
		}
	}
}

// staticValues holds, per world key, the string values it can take: its
// default and every literal set:; a key written by bind:, increment: or a
// templated set: has unknown values.
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
	c.eachEffect(func(e *Effect, _ effSite) {
		for _, kv := range e.Set {
			switch v := kv.Value.(type) {
			case string:
				if isTemplated(v) {
					if names, ok := sv.fromTemplate(v, kv.Key); ok {
						sv.vals[kv.Key] = append(sv.vals[kv.Key], names...)
					} else {
						sv.unknown[kv.Key] = true
					}
				} else {
					sv.vals[kv.Key] = append(sv.vals[kv.Key], v)
				}
			default:
				sv.unknown[kv.Key] = true
			}
		}
		for _, kv := range e.Bind() {
			sv.unknown[kv.Key] = true
		}
		for _, kv := range e.Increment() {
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

// fromTemplate returns the literal values of a set: template such as
// "{{ 'a' }}" (quoted names only); a template reading a world key (even
// key itself) is not resolved here.
func (sv *staticValues) fromTemplate(tpl, key string) ([]string, bool) {
	if strings.Contains(tpl, "slots.") || strings.Contains(tpl, "result") || (strings.Contains(tpl, "world.") && worldRefRe.MatchString(tpl)) {
		return nil, false
	}
	if !strings.ContainsAny(tpl, `'"`) {
		return nil, false // no quoted name (quotedRe finds nothing)
	}
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(tpl, -1) {
		out = append(out, m[1]+m[2])
	}
	return out, len(out) > 0
}

// templateTargets lists the values a templated target can render to, and
// whether that list is complete: the literal text outside its tags, every
// quoted name inside them, and the known values of every world key it
// reads. A template reading anything else (slots, args, a world key with
// unknown values) is incomplete.
func (sv *staticValues) templateTargets(tpl string) ([]string, bool) {
	known := true
	var out []string
	for _, m := range quotedRe.FindAllStringSubmatch(tpl, -1) {
		out = append(out, m[1]+m[2])
	}
	if lit := strings.TrimSpace(tagRe.ReplaceAllString(tpl, " ")); lit != "" {
		out = append(out, strings.Fields(lit)...)
	}
	for _, tag := range tagRe.FindAllString(tpl, -1) {
		if strings.HasPrefix(tag, "{%") {
			// control tags ({% if world.x %}) choose between the literal
			// texts; they print nothing themselves. A {% set %} or a loop
			// feeds a {{ }} tag, which is judged on its own.
			continue
		}
		if f := filterRe.FindAllStringSubmatch(tag, -1); len(f) > 0 {
			for _, m := range f {
				if m[1] != "default" && m[1] != "default_if_none" {
					known = false // a filter turns the values into others
				}
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
