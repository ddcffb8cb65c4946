package lint

import (
	"fmt"
	"sort"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleWithBeforeBind = &Rule{ID: "with-before-bind", Severity: diag.Warning, LintOnly: true,
	Summary: "an invoke's with: reads a member of a key (world.K.field, world.K[0]) that an earlier foreground call of the same chain binds while the key is still null: the engines render with: as the machine walks the effect, before any call of the step runs, so the read fails on a null and the step fails (upstream stops the run) although the bind would have landed by dispatch",
	Example: "on_enter:\n  - {invoke: host.ok, bind: {art: v}}             # art: {type: map, default: null}\n  - {invoke: host.ok, with: {x: \"{{ world.art.y }}\"}}"}

// checkWithBeforeBind warns at an invoke whose with: reads past a key a
// foreground call earlier in the same chain binds, without ?. or a
// default, while the key is null at walk time (its default, or an earlier
// literal set: of the chain). A chain is a state's on_enter, an arm's
// effects, and an arm's effects followed by the on_enter of the states
// its move enters down to the leaf (a stay arm's: by the arm its emit
// hops to and what that enters). Conformance with-walk-error: upstream
// renders the args when it walks the effect and stops the run.
func checkWithBeforeBind(c *checker) {
	wb := withBind{c: c, seen: map[*story.Effect]bool{}, nulls: map[string]bool{}}
	for _, w := range c.st.World {
		wb.nulls[w.Name] = w.Default == nil
	}
	for _, s := range c.states() {
		wb.chain(fmt.Sprintf("state %q on_enter", s.Path), [][]*story.Effect{s.OnEnter})
	}
	c.eachTransition(func(s *story.State, intent string, arm int, t *story.Transition) {
		if len(boundKeys(t.Effects)) == 0 {
			return // with nothing bound by the arm, each on_enter is judged on its own
		}
		lists := [][]*story.Effect{t.Effects}
		tg, err := s.Resolve(t.Target)
		switch {
		case err != nil:
		case tg.Kind == story.TargetState && tg.State.Import == nil:
			lists = append(lists, c.entered(tg.State)...)
		case tg.Kind == story.TargetStay:
			lists = append(lists, c.emitHop(s, t.Effects)...)
		}
		wb.chain(fmt.Sprintf("state %q intent %q arm %d", s.Path, intent, arm), lists)
	})
}

// withBind walks chains for checkWithBeforeBind.
type withBind struct {
	c     *checker
	seen  map[*story.Effect]bool // reported once, from the first chain
	nulls map[string]bool        // declared keys whose default is null
}

// chain walks the effect lists of one step in order.
func (wb *withBind) chain(where string, lists [][]*story.Effect) {
	null := map[string]bool{} // a key bound earlier in the step, null at walk time
	set := map[string]bool{}  // a key an earlier set: left null (true) or not
	for _, effs := range lists {
		for _, e := range effs {
			if e == nil {
				continue
			}
			if e.Invoke != "" && strings.TrimSpace(e.When) != "false" && !wb.seen[e] {
				if k := withNullRead(e.With, null); k != "" {
					wb.seen[e] = true
					wb.c.rep.Warnf(e.PosOf("with"), ruleWithBeforeBind,
						"%s: this %s call's with: reads past world.%s, which a call earlier in the same step binds, but with: is rendered when the machine walks the effect, before any call of the step runs, while world.%s is still null: the render fails and the step fails (the existing engine stops the run); write world.%s?.… or add a default (?? …), give %s a non-null world default, or make the call in a later turn, after the bind's",
						where, e.Invoke, k, k, k, k)
				}
			}
			wb.after(e, null, set)
		}
	}
}

// after records what e leaves in the walk-time world: a foreground
// call's binds (the key keeps its value until dispatch), a set:'s value.
func (wb *withBind) after(e *story.Effect, null, set map[string]bool) {
	for _, kv := range e.Set {
		s, isStr := kv.Value.(string)
		set[kv.Key] = e.When == "" && kv.Value == nil && !(isStr && story.IsTemplated(s))
		if _, bound := null[kv.Key]; bound {
			null[kv.Key] = set[kv.Key]
		}
	}
	if e.Invoke == "" || e.Background() {
		return
	}
	for _, b := range e.Bind() {
		k, _, _ := strings.Cut(b.Key, ".")
		if _, known := null[k]; known {
			continue
		}
		if v, ok := set[k]; ok {
			null[k] = v
		} else {
			null[k] = wb.nulls[k] || !declaredWorld(wb.c.st, k)
		}
	}
}

// declaredWorld reports whether st declares the world key k.
func declaredWorld(st *story.Story, k string) bool {
	for _, w := range st.World {
		if w.Name == k {
			return true
		}
	}
	return false
}

// entered lists the on_enter lists a move to s runs: s's, then each
// initial child's down to the leaf (a parallel state's regions are
// judged on their own).
func (c *checker) entered(s *story.State) [][]*story.Effect {
	var out [][]*story.Effect
	for depth := 0; s != nil && depth < 64; depth++ {
		out = append(out, s.OnEnter)
		if s.Parallel || len(s.Children) == 0 || s.Initial() == "" || story.IsTemplated(s.Initial()) {
			break
		}
		s = c.st.StateAt(s.Path + "." + s.Initial())
	}
	return out
}

// emitHop lists the effect lists a stay arm's first emit_intent walks in
// the same step at s: the one unguarded arm that takes it there, then the
// on_enter lists its move enters (with-walk-error's emit case). None when
// the emit is guarded or templated, or the arm taking it is not certain.
func (c *checker) emitHop(s *story.State, effs []*story.Effect) [][]*story.Effect {
	e := firstEmit(effs)
	if e == nil || e.When != "" || story.IsTemplated(e.EmitIntent()) || inParallel(s) {
		return nil
	}
	name := strings.TrimSpace(e.EmitIntent())
	at := nearest(s, func(x *story.State) bool { return x.HasOn(name) })
	if at == nil || len(at.Arms(name)) != 1 || at.Arms(name)[0].When != "" {
		return nil
	}
	hop := at.Arms(name)[0]
	out := [][]*story.Effect{hop.Effects}
	if tg, err := at.Resolve(hop.Target); err == nil && tg.Kind == story.TargetState && tg.State.Import == nil {
		out = append(out, c.entered(tg.State)...)
	}
	return out
}

// withNullRead is the first key null marks true that a string of the
// with: tree reads past (a member or an index) with no ?. on that access
// and no ?? after the read ("" when none).
func withNullRead(v any, null map[string]bool) string {
	switch v := v.(type) {
	case string:
		for _, r := range tagReads(v, true) {
			if r.root == "world" && null[r.key] && unsafePast(v[r.off:]) {
				return r.key
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if got := withNullRead(v[k], null); got != "" {
				return got
			}
		}
	case []any:
		for _, x := range v {
			if got := withNullRead(x, null); got != "" {
				return got
			}
		}
	}
	return ""
}

// unsafePast reports whether s, starting at world, reads world.K then a
// member or an index of it with a plain access, and no ?? follows the
// read.
func unsafePast(s string) bool {
	s = strings.TrimPrefix(s, "world")
	_, n := memberAfter(s)
	if n == 0 {
		return false
	}
	rest := s[n:]
	if !strings.HasPrefix(rest, "[") && !(strings.HasPrefix(rest, ".") && len(rest) > 1 && identByte(rest[1])) {
		return false // no access past the key, or a ?. one
	}
	for i := 0; i < len(rest); i++ {
		ch := rest[i]
		if identByte(ch) || strings.IndexByte(".?[]'\"", ch) >= 0 {
			if ch == '?' && strings.HasPrefix(rest[i:], "??") {
				return false
			}
			continue
		}
		tail := strings.TrimSpace(rest[i:])
		return !strings.HasPrefix(tail, "??")
	}
	return true
}
