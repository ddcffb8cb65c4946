package lint

import (
	"strings"

	"kitsoki/pkg/story"
)

// checkEffectShape: background, on_complete, target and emit_intent shape
// rules (reference §9.6).
func checkEffectShape(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		for _, kv := range e.Increment() {
			checkIncrementDelta(c, kv, site)
		}
		if site.Inline {
			return // upstream does not check its shape (demoteInline)
		}
		if e.Background() && e.Invoke == "" {
			c.rep.ErrAt(e.PosOf("background"), site.Place(), story.RuleEffect, "%s: background: true requires invoke: to be set", site.String())
		}
		if e.Background() && site.OnComplete {
			c.rep.ErrAt(e.PosOf("background"), site.Place(), story.RuleEffect, "%s: background: true is not allowed inside on_complete:", site.String())
		}
		if e.Target() != "" { // target: "" or ~ is no target (upstream)
			checkEffectTarget(c, e, site)
		}
		if len(e.Effects()) > 0 {
			c.rep.WarnAt(e.PosOf("effects"), site.Place(), story.RuleEffect, "%s: effects: an inline effects list never runs (the existing engine ignores it, and kitsoki does the same); put these effects in the list that holds this entry, before it", site.String())
		}
		if len(e.OnComplete()) > 0 && !e.Background() {
			c.rep.WarnAt(e.PosOf("on_complete"), site.Place(), story.RuleEffect, "%s: on_complete: only runs after a background: true invoke; this effect is not a background job", site.String())
		}
	})
	for _, n := range sortedMapKeys(c.st.Proposals) {
		ex := c.st.Proposals[n].Execute
		if ex != nil && ex.Background && ex.Invoke == "" {
			mark := len(c.rep.Diags)
			c.rep.Errf(ex.Pos, story.RuleEffect, "proposal %q execute: background: true requires invoke: to be set", n)
			c.demoteChildProposal(mark)
		}
	}
}

// checkEffectTarget: an effect's target: sits in an on_complete: chain,
// alone. As upstream, a key written empty (set: {}, say: "", bind: {},
// invoke: "", emit_intent: "") is not there, and the message names the
// keys that are.
func checkEffectTarget(c *checker, e *story.Effect, site effSite) {
	if !site.OnComplete {
		c.rep.ErrAt(e.PosOf("target"), site.Place(), story.RuleEffect, "%s: target: is only allowed inside on_complete: effects (it fires a synthetic transition once the background job terminates); use a normal transition's target: for in-turn transitions", site.String())
	}
	var with []string
	for _, k := range append(effectKinds(e), effectKind{"bind", len(e.Bind()) > 0}) {
		if k.has {
			with = append(with, k.name)
		}
	}
	if len(with) > 0 {
		c.rep.ErrAt(e.PosOf("target"), site.Place(), story.RuleEffect, "%s: target: cannot be combined with %s on the same effect (split into separate effects in the on_complete: chain — mutation first, transition last)", site.String(), strings.Join(with, "/"))
	}
	if e.EmitIntent() != "" {
		c.rep.ErrAt(e.PosOf("emit_intent"), site.Place(), story.RuleEffect, "%s: emit_intent: cannot be combined with target: on the same effect (split into separate effects)", site.String())
	}
}

// checkIncrementDelta: an increment value is an integer delta; what the
// existing engine's loader also takes is a warning saying what it adds
// (conformance increment-text, increment-big).
func checkIncrementDelta(c *checker, kv story.KV, site effSite) {
	switch v := kv.Value.(type) {
	case int:
	case float64:
		n, exact, ok := story.IncrementFloat(v)
		switch {
		case !ok:
			c.rep.ErrAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: %v overflows an integer delta", site.String(), kv.Key, v)
		case !exact:
			c.rep.WarnAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: %v is not an integer; it adds %d (truncated toward zero; the lowest integer past the int64 range) — write the integer delta", site.String(), kv.Key, v, n)
		}
	case nil:
		c.rep.WarnAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: an empty value adds 0 — write the integer delta", site.String(), kv.Key)
	case string:
		n, ok := story.IncrementText(v)
		switch {
		case ok:
			c.rep.WarnAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: the text %q adds %d — write it as the number %d", site.String(), kv.Key, v, n, n)
		case story.IsTemplated(v):
			c.rep.ErrAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: value must be an integer delta (got %q): a template is not rendered here (the existing engine refuses the story); set: the key from an expression instead", site.String(), kv.Key, v)
		default:
			c.rep.ErrAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: value must be an integer delta (got %q)", site.String(), kv.Key, v)
		}
	default:
		c.rep.ErrAt(kv.Pos, site.Place(), story.RuleEffect, "%s: increment %q: value must be an integer delta", site.String(), kv.Key)
	}
}
