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

// grammarSend is one decide schema a grammar: true local_llm call sends.
type grammarSend struct {
	e    *story.Effect
	site effSite
	path string // as written in with.schema
	abs  string
	*grammarFacts
}

// grammarFacts is what the grammar rules learn of one decide schema file,
// once however many calls send it (BenchmarkCheckGrammarManyCalls: one
// schema named by thousands of calls was compiled and walked once a call).
type grammarFacts struct {
	file    []byte // the file as read
	sent    []byte // what is sent: the bundled schema when it compiles, else the file
	subset  []schema.GrammarViolation
	ignored []schema.GrammarIgnored // nil when subset is not empty
	offs    map[string]int          // the file's keys' offsets, when ignored is not empty
}

// eachGrammarSend calls fn for every readable decide schema of a
// builtin.local_llm alias with grammar: true, and reports one it cannot read
// under the grammar rule (diag.Sort drops the same finding from a second pass).
func (c *checker) eachGrammarSend(fn func(g grammarSend)) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		if e.Invoke != "host.agent.decide" || e.Agent() == "" || site.Template {
			return
		}
		ap := pluginFor(c.st, e.Agent())
		if ap == nil || ap.Plugin != story.PluginLocalLLM || !ap.Grammar {
			return
		}
		if c.st.Imported() && foldedTop(c.st).AgentPlugins[e.Agent()] == nil {
			// upstream's fold drops a child's agent_plugins: it loads the
			// story without checking this call (gen write -kind lint -wrap 1
			// -seed 7118, grammar-schema-missing)
			mark := len(c.rep.Diags)
			defer c.rep.DemoteSince(mark, "upstream does not fold an imported child's agent_plugins: and does not check this call")
		}
		path := withString(e, "schema")
		if path == "" || story.IsTemplated(path) {
			return
		}
		abs := c.storyPath(path)
		raw, err, in := c.readNamed(e.WithPos("schema"), site.String()+": with.schema", path, abs)
		if !in {
			return
		}
		if err != nil {
			c.rep.ErrAt(e.WithPos("schema"), site.Place(), ruleGrammar, "%s: agent %q is builtin.local_llm with grammar: true but its decide schema %q could not be read: %s", site.String(), e.Agent(), path, safefile.ErrText(err))
			return
		}
		fn(c.grammarSend(e, site, path, abs, raw))
	})
}

func (c *checker) grammarSend(e *story.Effect, site effSite, path, abs string, raw []byte) grammarSend {
	key := filepath.Clean(path)
	f := c.grammar[key]
	if f == nil {
		f = &grammarFacts{file: raw, sent: raw}
		if s, err := schema.NewStoryCompiler(c.st.Dir, c.st.Patterns()).Compile(key); err == nil {
			f.sent = s.Bundled
		}
		if f.subset = schema.CheckGrammarSubset(f.sent); len(f.subset) == 0 {
			f.ignored = schema.CheckGrammarIgnored(f.sent)
		}
		if len(f.ignored) > 0 {
			f.offs = schema.KeyOffsets(raw)
		}
		if c.grammar == nil {
			c.grammar = map[string]*grammarFacts{}
		}
		c.grammar[key] = f
	}
	return grammarSend{e: e, site: site, path: path, abs: abs, grammarFacts: f}
}

// checkGrammar: a host.agent.decide on a builtin.local_llm plugin with
// grammar: true sends a schema inside the llama.cpp grammar subset
// (reference §7.3).
func checkGrammar(c *checker) {
	c.eachGrammarSend(func(g grammarSend) {
		for _, v := range g.subset {
			c.rep.ErrAt(g.e.WithPos("schema"), g.site.Place(), ruleGrammar, "%s: agent %q is builtin.local_llm with grammar: true but its decide schema %q is outside the llama.cpp grammar subset: %s (construct %q at %s)", g.site.String(), g.e.Agent(), g.path, v.String(), v.Construct, v.Pointer)
		}
	})
}
