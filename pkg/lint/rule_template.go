package lint

import (
	"fmt"
	"strconv"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

var ruleTemplate = &Rule{ID: "template", Severity: diag.Error, Summary: "{{ }} value templates in set/with/slots/emit_intent/bind compile",
	Example: "set: {n: \"{{ world.n + }}\"}"}

// checkValueTemplates: {{ }} value templates of effects and imports
// compile (reference §6.2).
func checkValueTemplates(c *checker) {
	c.eachEffect(c.effectTemplates)
	for _, alias := range c.st.ImportOrder {
		im := c.st.Imports[alias]
		for _, kv := range im.WorldIn {
			if _, err := c.compileValue(kv.Value); err != nil {
				c.rep.Errf(kv.Pos, ruleTemplate, "imports.%s: world_in.%s: %s", alias, kv.Key, err.Error())
			}
		}
		for _, en := range sortedMapKeys(im.Exits) {
			for _, kv := range im.Exits[en].Set {
				if _, err := c.compileValue(kv.Value); err != nil {
					c.rep.Errf(kv.Pos, ruleTemplate, "imports.%s: exits.%s.set.%s: %s", alias, en, kv.Key, err.Error())
				}
			}
		}
	}
}

// effectTemplates checks the value templates of one effect; in a phase
// template its findings are warnings.
func (c *checker) effectTemplates(e *story.Effect, site effSite) {
	sev := diag.Error
	if site.Template {
		sev = diag.Warning
	}
	report := func(p story.Pos, what string, src any, err error) {
		text, _ := src.(string)
		if site.Template && placeholderErr(text, err) {
			return // substituted when the phase is expanded
		}
		c.rep.AddAt(p, site.Place(), sev, ruleTemplate, "%s: effect %s: %s", site.String(), what, err.Error())
	}
	for _, kv := range e.Set {
		if sub, err := c.compileValue(kv.Value); err != nil {
			src, _ := kv.Value.(string)
			report(c.errAt(kv.Pos, src, err), fmt.Sprintf("set %q", kv.Key+sub), src, err)
		}
	}
	for _, k := range sortedMapKeys(e.With) {
		if sub, err := c.compileValue(e.With[k]); err != nil {
			src, _ := lookupRaw(e.With[k], sub).(string)
			report(c.errAt(e.WithPos(k+sub), src, err), fmt.Sprintf("with %q", k+sub), src, err)
		}
	}
	for _, kv := range e.Slots() {
		if _, err := c.compileValue(kv.Value); err != nil {
			report(kv.Pos, fmt.Sprintf("emit_intent slot %q", kv.Key), kv.Value, err)
		}
	}
	if e.EmitIntent() != "" {
		if err := c.compileTemplate(e.EmitIntent()); err != nil {
			report(c.errAt(e.PosOf("emit_intent"), e.EmitIntent(), err), "emit_intent", e.EmitIntent(), err)
		}
	}
	for _, kv := range e.Bind() {
		c.bindTemplate(kv, site, sev)
	}
}

// bindTemplate checks a bind: value, a result path string or a template.
func (c *checker) bindTemplate(kv story.KV, site effSite, sev diag.Severity) {
	switch v := kv.Value.(type) {
	case map[string]any, []any:
		c.rep.AddAt(kv.Pos, site.Place(), sev, ruleTemplate, "%s: effect bind %q: expected a result path string such as submitted or stdout_json.sha", site.String(), kv.Key)
	case nil: // upstream reads null as the empty path
		c.rep.WarnAt(kv.Pos, site.Place(), ruleTemplate, "%s: effect bind %q: a null result path binds nothing; name a path such as submitted or stdout_json.sha", site.String(), kv.Key)
	case string:
		if !expr.IsTemplate(v) {
			return
		}
		// upstream compiles a bind template only when the result lands
		if err := c.compileTemplate(v); err != nil && !(site.Template && placeholderErr(v, err)) {
			c.rep.WarnAt(kv.Pos, site.Place(), ruleTemplate, "%s: effect bind %q never binds (the template fails whenever the call answers, and the key keeps its value): %s", site.String(), kv.Key, err.Error())
		}
	}
}

// lookupRaw follows a ".a.b[2]" path below a raw value.
func lookupRaw(v any, path string) any {
	path = strings.ReplaceAll(strings.ReplaceAll(path, "[", ".["), "]", "")
	for _, k := range strings.Split(strings.TrimPrefix(path, "."), ".") {
		if k == "" {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(strings.TrimPrefix(k, "["))
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
