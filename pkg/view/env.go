package view

import (
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// env builds the template and guard context of a view render
// (story-runtime §8, story-format §6.3): world, slots (empty unless the
// caller passes the turn's slots), event, args, run, state {path,
// description}, menu, and the helpers available(), blocked(),
// blocked_reason() and intent_status(). extra entries override the
// defaults.
func (r *Renderer) env(s *story.State, world, extra map[string]any) expr.Env {
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
		if v == nil {
			if _, isRoot := env[k]; isRoot {
				continue // a nil root stays an empty map
			}
		}
		env[k] = v
	}
	h := &helpers{r: r, s: s, env: env}
	env["available"] = h.available
	env["blocked"] = h.blocked
	env["blocked_reason"] = h.blockedReason
	env["intent_status"] = h.intentStatus
	if _, ok := extra["menu"]; !ok {
		env["menu"] = h.menu()
	}
	return env
}

// helpers answer, for the state being rendered, whether an intent would be
// accepted now: the first state on the walk from the leaf up that has arms
// for the intent decides (story-runtime §1.5); the intent is available
// when one of those arms has no when: or a when: that holds.
type helpers struct {
	r   *Renderer
	s   *story.State
	env expr.Env
}

// arms returns the arms the walk finds for intent.
func (h *helpers) arms(intent string) []*story.Transition {
	for cur := h.s; cur != nil; cur = cur.Parent {
		if a := cur.Arms(intent); len(a) > 0 {
			return a
		}
	}
	return nil
}

// status is "available", "blocked" (arms exist, none passes; reason is the
// first failing arm's guard_hint) or "unavailable" (no arm in this state).
func (h *helpers) status(intent string) (string, string) {
	arms := h.arms(intent)
	if len(arms) == 0 {
		return "unavailable", ""
	}
	reason := ""
	for _, t := range arms {
		if t.When == "" || t.Default() {
			return "available", ""
		}
		ok, err := h.r.guard(t.When, h.env)
		if err == nil && ok {
			return "available", ""
		}
		if reason == "" {
			reason = t.GuardHint()
		}
	}
	return "blocked", reason
}

func (h *helpers) available(intent string) bool {
	st, _ := h.status(intent)
	return st == "available"
}

func (h *helpers) blocked(intent string) bool {
	st, _ := h.status(intent)
	return st == "blocked"
}

func (h *helpers) blockedReason(intent string) string {
	_, reason := h.status(intent)
	return reason
}

func (h *helpers) intentStatus(intent string) string {
	st, _ := h.status(intent)
	return st
}

// menu lists the intents of the state: its menu: when set, otherwise the
// on: intents of the leaf and its ancestors in declaration order (the
// wildcard excluded), each as {name, title, description, available}.
func (h *helpers) menu() []any {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n == "" || n == "*" || seen[n] {
			return
		}
		seen[n] = true
		names = append(names, n)
	}
	if len(h.s.Menu()) > 0 {
		for _, n := range h.s.Menu() {
			add(n)
		}
	} else {
		for cur := h.s; cur != nil; cur = cur.Parent {
			for _, on := range cur.On {
				add(on.Intent)
			}
		}
	}
	out := make([]any, 0, len(names))
	for _, n := range names {
		title, desc := "", ""
		if in := h.intent(n); in != nil {
			title, desc = in.Title, in.Description
		}
		out = append(out, map[string]any{"name": n, "title": title, "description": desc, "available": h.available(n)})
	}
	return out
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

// guard evaluates a transition's when: guard (compiled once per source),
// for the availability helpers.
func (r *Renderer) guard(src string, env expr.Env) (bool, error) {
	p, err := r.program(r.guards, src, expr.CompileGuard)
	if err != nil {
		return false, err
	}
	return p.EvalBool(env)
}

// program returns src compiled by compile, from cache or compiled now and
// kept there (a compile error is kept too).
func (r *Renderer) program(cache map[string]guardEntry, src string, compile func(string) (*expr.Program, error)) (*expr.Program, error) {
	g := memo(&r.mu, cache, src, func() guardEntry {
		p, err := compile(src)
		return guardEntry{p, err}
	})
	return g.p, g.err
}
