package lint

import (
	"fmt"
	"strings"

	"kitsoki/pkg/story"
)

// slotTrust is what a slots.<name> read holds, for rule shell-injection:
// "" when the value is one of the author's own (an enum), else where it
// comes from. Probed against the existing engine (testdata/shell-injection/
// slots-runtime): a value outside a slot's values: rejects the intent in
// every run (no --strict needed), but an emit_intent's slots: are never
// held to values:; a slot's type: (integer, number, boolean) is checked
// only by kitsoki run --strict, never by the existing engine.
func (c *checker) slotTrust(p *story.EffectPlace, r tplRead) string {
	return slotTrust(c.src.intentDecls(c.st), p, r, c.src.slotEmits(c.st))
}

// intentDecls is every declaration of each intent in st, the global one
// first, then each state's own (storyStates), indexed once per load.
func (l *sources) intentDecls(st *story.Story) map[string][]*story.Intent {
	if d, ok := l.decls[st]; ok {
		return d
	}
	d := map[string][]*story.Intent{}
	for _, n := range sortedMapKeys(st.Intents) {
		if it := st.Intents[n]; it != nil {
			d[n] = append(d[n], it)
		}
	}
	for _, s := range l.storyStates(st) {
		for _, n := range sortedMapKeys(s.Intents) {
			if it := s.Intents[n]; it != nil {
				d[n] = append(d[n], it)
			}
		}
	}
	if l.decls == nil {
		l.decls = map[*story.Story]map[string][]*story.Intent{}
	}
	l.decls[st] = d
	return d
}

// storyStates is every state whose effects storyEffects visits: st's
// with its phases: expanded when they expand, else its own and its phase
// templates'.
func (l *sources) storyStates(st *story.Story) []*story.State {
	if exp := l.expandedStory(st); exp != nil {
		return exp.AllStates()
	}
	states := st.AllStates()
	for _, n := range sortedMapKeys(st.PhaseTemplates) {
		states = append(states, story.Flatten(st.PhaseTemplates[n].States)...)
	}
	return states
}

// slotEmits is the emit_intent effects of st's import tree that give a
// slot a templated value, by intent (its own name, "" for a templated
// one), worked out once per load.
func (l *sources) slotEmits(st *story.Story) map[string][]emitSlot {
	if l.emits == nil {
		l.emits = treeSlotEmits(l, st)
	}
	return l.emits
}

// emitSlot is one templated slots: value of an emit_intent.
type emitSlot struct {
	slot string
	pos  story.Pos
}

func treeSlotEmits(src *sources, st *story.Story) map[string][]emitSlot {
	top := st
	for top.Importer() != nil {
		top = top.Importer()
	}
	out := map[string][]emitSlot{}
	for _, s := range append([]*story.Story{top}, top.Children()...) {
		storyEffects(src, s, func(p *story.EffectPlace, _ bool, _ string) {
			name := p.Effect.EmitIntent()
			if name == "" {
				return
			}
			if story.IsTemplated(name) {
				name = ""
			} else if i := strings.LastIndex(name, "__"); i >= 0 {
				name = name[i+2:] // an alias's intent: its own name
			}
			for _, kv := range p.Effect.Slots() {
				templated := false
				walkStrings(kv.Value, "", func(_, v string) { templated = templated || strings.Contains(v, "{") })
				if templated {
					out[name] = append(out[name], emitSlot{kv.Key, kv.Pos})
				}
			}
		})
	}
	return out
}

// slotTrust: see (*checker).slotTrust. Only an arc's own effects know
// their intent (on_enter, on_exit and a job's on_complete see whichever
// intent moved the machine); every declaration of that intent (decls: the
// global one and each state's own) must hold the slot with values:.
func slotTrust(decls map[string][]*story.Intent, p *story.EffectPlace, r tplRead, emits map[string][]emitSlot) string {
	typed := untrustedRoots["slots"]
	if r.key == "" || p == nil || p.Intent == "" || p.Intent == "*" || p.Within("on_complete") {
		return typed
	}
	its := decls[p.Intent]
	if len(its) == 0 {
		return typed
	}
	slots := make([]*story.Slot, 0, len(its))
	for _, it := range its {
		sl := it.Slots[r.key]
		if sl == nil {
			return typed // an undeclared slot is passed through as given
		}
		slots = append(slots, sl)
	}
	enum, kind := true, ""
	for _, sl := range slots {
		enum = enum && len(sl.Values) > 0
		switch t := strings.ToLower(strings.TrimSpace(sl.Type)); t {
		case "int", "integer", "number", "float", "bool", "boolean":
			if kind == "" || kind == t {
				kind = t
				continue
			}
		}
		kind = "-"
	}
	if enum {
		for _, key := range []string{p.Intent, ""} {
			for _, e := range emits[key] {
				if e.slot == r.key {
					return fmt.Sprintf("what the emit_intent at %s sets it to from a template (an emitted slot is not held to its values:, as a typed one is)", posText(e.pos))
				}
			}
		}
		return ""
	}
	if kind != "" && kind != "-" {
		return fmt.Sprintf("%s (its type: %s is checked only by kitsoki run --strict; the existing engine never checks it)", typed, kind)
	}
	return typed
}
