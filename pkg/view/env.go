package view

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// env builds a view render's context: world, slots, event, args, run,
// state, menu and the availability helpers; extra overrides them.
func (r *Renderer) env(s *story.State, par []*story.State, world, extra map[string]any) expr.Env {
	if world == nil {
		world = map[string]any{}
	}
	env := expr.Env{
		"world": world,
		"slots": map[string]any{},
		"event": map[string]any{},
		"args":  map[string]any{},
		"run":   map[string]any{},
		"state": map[string]any{"path": s.Path, "description": s.Description},
	}
	for k, v := range extra {
		if m, isMap := v.(map[string]any); v == nil || isMap && m == nil {
			if _, isRoot := env[k]; isRoot {
				continue // a nil root stays an empty map (`slots == nil` is false upstream)
			}
		}
		env[k] = v
	}
	h := &helpers{r: r, s: s, par: par, env: env}
	status := func(intent string) string { st, _ := h.status(intent); return st }
	env["available"] = func(intent string) bool { return status(intent) == "available" }
	env["blocked"] = func(intent string) bool { return status(intent) == "blocked" }
	env["blocked_reason"] = func(intent string) string { _, reason := h.status(intent); return reason }
	env["intent_status"] = status
	if _, ok := extra["menu"]; !ok {
		env["menu"] = h.menu()
	}
	return env
}

// helpers answer whether an intent would be accepted now: the first state
// from the leaf up with arms for it decides, and it is available when one
// of them has no when: or one that holds. In a parallel configuration
// upstream evaluates no guard: an arm on any leaf or ancestor makes it
// available (conformance view-helpers).
type helpers struct {
	r   *Renderer
	s   *story.State
	par []*story.State
	env expr.Env
}

// armsAt is arms with the state that declares them.
func (h *helpers) armsAt(intent string) ([]*story.Transition, *story.State) {
	for cur := h.s; cur != nil; cur = cur.Parent {
		if a := cur.Arms(intent); len(a) > 0 {
			return a, cur
		}
	}
	return nil, nil
}

// status is "available", "blocked" (with the first guard_hint) or
// "unknown" (no arm in this state; conformance view-helpers).
func (h *helpers) status(intent string) (string, string) {
	if h.par != nil {
		if h.parIntents()[intent] {
			return "available", ""
		}
		return "unknown", ""
	}
	arms, _ := h.armsAt(intent)
	if len(arms) == 0 {
		return "unknown", ""
	}
	if h.needsSlots(intent) {
		return "available", ""
	}
	reason := ""
	for _, t := range arms {
		if t.When == "" || t.Default() || h.r.guardOpen(t.When, h.env) {
			return "available", ""
		}
		if reason == "" {
			reason = t.GuardHint()
		}
	}
	return "blocked", reason
}

// menu is upstream's menu context (conformance view-menu): "primary", the
// intents an arm would take now by priority then name, and "blocked",
// those whose arms all fail, each {intent, display, destination_hint,
// primary, reason}; hidden intents and the wildcard are left out. A guard
// that cannot be evaluated, or a required slot, counts as primary with no
// destination_hint.
func (h *helpers) menu() map[string]any {
	seen := onIntents(h.s, nil)
	if h.par != nil {
		seen = h.parIntents()
	}
	primary, blocked := []any{}, []any{}
	add := func(entry map[string]any, isPrimary bool) {
		if isPrimary {
			primary = append(primary, entry)
		} else {
			blocked = append(blocked, entry)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(seen)) {
		in := h.intent(n)
		if in != nil && in.Hidden {
			continue
		}
		if h.par != nil {
			primary = append(primary, menuEntry(n, n))
			continue
		}
		req, enum := requiredSlots(in)
		if enum == nil {
			entry := menuEntry(n, menuDisplay(n, req, "", ""))
			add(entry, len(req) > 0 || h.menuArms(entry, n, in, h))
			continue
		}
		// one entry per enum value (conformance view-menu-enum-slots)
		for _, v := range enumValues(enum) {
			entry := menuEntry(n, menuDisplay(n, req, enum.Name, v))
			hv := *h
			hv.env = maps.Clone(h.env)
			hv.env["slots"] = map[string]any{enum.Name: v}
			add(entry, h.menuArms(entry, n, in, &hv))
		}
	}
	// primary by priority: then name (conformance view-menu-priority)
	slices.SortStableFunc(primary, func(a, b any) int {
		return cmp.Compare(h.priority(b.(map[string]any)["intent"].(string)), h.priority(a.(map[string]any)["intent"].(string)))
	})
	return map[string]any{"primary": primary, "blocked": blocked}
}

// menuEntry is a menu entry before its arms are read.
func menuEntry(intent, display string) map[string]any {
	return map[string]any{"intent": intent, "display": display, "destination_hint": "", "primary": true, "reason": ""}
}

// menuArms fills entry from intent's arms as hv reads them, reporting
// whether it is primary (else the reason: a guard_hint or description).
func (h *helpers) menuArms(entry map[string]any, intent string, in *story.Intent, hv *helpers) bool {
	dest, ok, hint := hv.destination(h.armsAt(intent))
	if ok {
		entry["destination_hint"] = dest
		return true
	}
	if hint == "" && in != nil {
		hint = in.Description
	}
	entry["primary"], entry["reason"] = false, hint
	return false
}

// requiredSlots lists intent's required slots, and the first that has
// values:, whatever its type (nil when none).
func requiredSlots(in *story.Intent) (req []*story.Slot, enum *story.Slot) {
	if in == nil {
		return nil, nil
	}
	for _, name := range slices.Sorted(maps.Keys(in.Slots)) {
		sl := in.Slots[name]
		if sl == nil || !sl.Required {
			continue
		}
		req = append(req, sl)
		if enum == nil && len(sl.Values) > 0 { // any type (conformance view-menu-values-any-type)
			enum = sl
		}
	}
	return req, enum
}

// menuDisplay is upstream's display of a menu entry: the intent's name,
// then each required slot as its value or a <name:type> placeholder.
func menuDisplay(intent string, req []*story.Slot, expanded, value string) string {
	var b strings.Builder
	b.WriteString(intent)
	for _, sl := range req {
		if sl.Name == expanded {
			b.WriteString(" " + value)
			continue
		}
		b.WriteString(" <" + sl.Name + ":" + sl.Type + ">")
	}
	return b.String()
}

// enumValues is an enum slot's values as text, sorted.
func enumValues(sl *story.Slot) []string {
	out := make([]string, 0, len(sl.Values))
	for _, v := range sl.Values {
		out = append(out, fmt.Sprint(v))
	}
	slices.Sort(out)
	return out // a value listed twice is listed twice (conformance view-menu-values-any-type)
}

// priority is the priority: of the intent n resolves to here (0: none).
func (h *helpers) priority(n string) int {
	if in := h.intent(n); in != nil {
		return in.Priority
	}
	return 0
}

// onIntents adds to seen the intents with arms on s or its ancestors.
func onIntents(s *story.State, seen map[string]bool) map[string]bool {
	if seen == nil {
		seen = map[string]bool{}
	}
	for cur := s; cur != nil; cur = cur.Parent {
		for _, on := range cur.On {
			if on.Intent != "" && on.Intent != "*" {
				seen[on.Intent] = true
			}
		}
	}
	return seen
}

// parIntents are the intents with arms on a region leaf or its ancestors.
func (h *helpers) parIntents() map[string]bool {
	var seen map[string]bool
	for _, l := range h.par {
		seen = onIntents(l, seen)
	}
	return seen
}

// destination is the target of the first arm that would be taken (a stay
// names owner: conformance mutate-menu-stay-hint), else the first failing
// arm's guard_hint; a guard that fails to evaluate counts as taken.
func (h *helpers) destination(arms []*story.Transition, owner *story.State) (dest string, ok bool, hint string) {
	for _, t := range arms {
		if t.When != "" && !t.Default() {
			pass, err := h.r.guard(t.When, h.env)
			if err != nil {
				return "", true, ""
			}
			if !pass {
				if hint == "" {
					hint = t.GuardHint()
				}
				continue
			}
		}
		if t.Target == "" || t.Target == "." {
			return owner.Path, true, ""
		}
		return destHint(owner, t.Target), true, ""
	}
	return "", false, hint
}

// destHint is a passing arm's target as upstream's menu shows it,
// resolved from owner (conformance view-menu-destination).
func destHint(owner *story.State, target string) string {
	t := strings.TrimSpace(target)
	switch {
	case story.IsTemplated(t):
		return target
	case strings.HasPrefix(t, "@exit:"):
		return "__exit__" + strings.TrimPrefix(t, "@exit:")
	}
	if p, err := story.ResolvePath(owner.Path, t); err == nil && p != "" {
		return p
	}
	return target
}

// needsSlots reports whether intent declares a required slot: upstream stops
// there before any guard (conformance view-helpers-required-slots).
func (h *helpers) needsSlots(intent string) bool {
	in := h.intent(intent)
	if in == nil {
		return false
	}
	for _, sl := range in.Slots {
		if sl != nil && sl.Required {
			return true
		}
	}
	return false
}

func (h *helpers) intent(name string) *story.Intent {
	for cur := h.s; cur != nil; cur = cur.Parent {
		if in := cur.Intents[name]; in != nil {
			return in
		}
	}
	if h.r.st != nil {
		return h.r.st.Intents[name]
	}
	return nil
}

// guard evaluates a when: guard (compiled once per source) for the helpers.
func (r *Renderer) guard(src string, env expr.Env) (bool, error) {
	p, err := r.program(r.guards, src, expr.CompileGuard)
	if err != nil {
		return false, err
	}
	return p.EvalBool(env)
}

// guardOpen is how the helpers read a guard, as upstream: only false or
// nil closes it (conformance storymut-helper-guard-values).
func (r *Renderer) guardOpen(src string, env expr.Env) bool {
	p, err := r.program(r.guards, src, expr.CompileGuard)
	if err != nil {
		return true
	}
	v, err := p.Eval(env)
	return err != nil || v != nil && v != false
}

// program returns src compiled by compile, cached (errors too).
func (r *Renderer) program(cache map[string]guardEntry, src string, compile func(string) (*expr.Program, error)) (*expr.Program, error) {
	g := memo(&r.mu, cache, src, func() guardEntry {
		p, err := compile(src)
		return guardEntry{p, err}
	})
	return g.p, g.err
}
