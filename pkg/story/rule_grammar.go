package story

import (
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/schema"
)

// checkGrammar: a host.agent.decide whose effect-level agent: alias is a
// builtin.local_llm plugin with grammar: true must use a schema inside the
// llama.cpp grammar subset (reference §7.3). The message names the plugin,
// the schema file, the construct and its JSON pointer.
func checkGrammar(c *checker) {
	c.eachEffect(func(e *Effect, site effSite) {
		if e.Invoke != "host.agent.decide" || e.Agent == "" || site.Template {
			return
		}
		ap := c.st.pluginFor(e.Agent)
		if ap == nil || ap.Plugin != PluginLocalLLM || !ap.Grammar {
			return
		}
		path := schemaPath(e)
		if path == "" {
			return
		}
		f := path
		if !filepath.IsAbs(f) {
			f = filepath.Join(c.st.Dir, path)
		}
		raw, err := safefile.ReadFile(f, safefile.Story)
		if err != nil {
			c.rep.errf(e.withPos("schema"), ruleGrammar, "%s: agent %q is builtin.local_llm with grammar: true but its decide schema %q could not be read: %s", site.Loc, e.Agent, path, errText(err))
			return
		}
		for _, v := range schema.CheckGrammarSubset(raw) {
			c.rep.errf(e.withPos("schema"), ruleGrammar, "%s: agent %q is builtin.local_llm with grammar: true but its decide schema %q is outside the llama.cpp grammar subset: %s (construct %q at %s)", site.Loc, e.Agent, path, v.String(), v.Construct, v.Pointer)
		}
	})
}
