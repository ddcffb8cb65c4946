package lint

import (
	"path/filepath"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

var ruleGrammar = &Rule{ID: "grammar", Severity: diag.Error, Summary: "decide schemas of a builtin.local_llm grammar: true alias stay in the llama.cpp grammar subset",
	Example: "\"pattern\": \"a+\"   # not anchored"}

// checkGrammar: a host.agent.decide on a builtin.local_llm plugin with
// grammar: true sends a schema inside the llama.cpp grammar subset
// (reference §7.3).
func checkGrammar(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.agent.decide" || e.Agent() == "" || site.Template {
			return
		}
		ap := pluginFor(c.st, e.Agent())
		if ap == nil || ap.Plugin != story.PluginLocalLLM || !ap.Grammar {
			return
		}
		path := withString(e, "schema")
		if path == "" || story.IsTemplated(path) {
			return
		}
		raw, err, in := c.readNamed(e.WithPos("schema"), site.String()+": with.schema", path, c.storyPath(path))
		if !in {
			return
		}
		if err != nil {
			c.rep.Errf(e.WithPos("schema"), ruleGrammar, "%s: agent %q is builtin.local_llm with grammar: true but its decide schema %q could not be read: %s", site.String(), e.Agent(), path, safefile.ErrText(err))
			return
		}
		// what is sent: the bundled schema when it compiles, else the file
		if s, err := schema.NewCompiler(c.st.Dir).Compile(filepath.Clean(path)); err == nil {
			raw = s.Bundled
		}
		for _, v := range schema.CheckGrammarSubset(raw) {
			c.rep.Errf(e.WithPos("schema"), ruleGrammar, "%s: agent %q is builtin.local_llm with grammar: true but its decide schema %q is outside the llama.cpp grammar subset: %s (construct %q at %s)", site.String(), e.Agent(), path, v.String(), v.Construct, v.Pointer)
		}
	})
}
