package story

import (
	"fmt"
	"kitsoki/pkg/diag"
	"reflect"
	"strings"
	"testing"
)

func TestImportsLoadChildClean(t *testing.T) {
	st, ds := Load("testdata/imports_ok", Options{})
	if len(ds) != 0 {
		t.Fatalf("diagnostics:\n%s", render(ds))
	}
	im := st.Imports["fixer"]
	if im == nil || im.Child == nil || im.Child.App.ID != "child" || im.Child.State("idle") == nil {
		t.Fatalf("child not loaded: %+v", im)
	}
	w := st.State("fixer")
	if w == nil || w.Import != im {
		t.Fatalf("wrapper state missing")
	}
	if tg, err := st.State("start").Resolve("fixer.idle"); err != nil || tg.State != w {
		t.Errorf("alias.entry target: %+v %v", tg, err)
	}
	if _, err := st.State("start").Resolve("fixer.deeper"); err == nil || !strings.Contains(err.Error(), "reaches into the imported child") {
		t.Errorf("reach-in not rejected: %v", err)
	}
}

func TestLiftedChildNamesResolveInParent(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: p}
root: s
hosts: [host.agent.ask]
imports:
  kid: {source: ./kid}
states:
  s:
    relevant_world: [kid__outcome]
    on:
      kid__finish: [{target: kid}]
    on_enter:
      - invoke: host.agent.ask
        with: {agent: kid__helper, prompt: hi there}
        bind: {x: stdout}
`)
	write(t, dir, "kid/app.yaml", `app: {id: k}
root: a
world: {outcome: {type: string, default: ""}}
intents: {finish: {}}
agents: {helper: {system_prompt: help}}
states: {a: {}}
`)
	_, ds := Load(dir, Options{})
	if len(ds) != 0 {
		t.Fatalf("lifted names rejected:\n%s", render(ds))
	}
}

// Parsing an import's override on demand (the fold does, once per
// override) reads the importer's own nodes and never changes them: the
// story stays equal to a second load of the same files.
func TestOverrideParseLeavesTheStory(t *testing.T) {
	a, ds := Load("testdata/upstream/imports-full", Options{AllowUnsetEnv: true})
	if a == nil || diag.HasErrors(ds) {
		t.Fatalf("load:\n%s", render(ds))
	}
	b, _ := Load("testdata/upstream/imports-full", Options{AllowUnsetEnv: true})
	parsed := 0
	for _, im := range a.Imports {
		if im.Overrides == nil {
			continue
		}
		for _, name := range im.Overrides.StateNames() {
			if s, _ := im.Overrides.ParseState(name); s == nil {
				t.Fatalf("override %q did not parse", name)
			}
			parsed++
		}
	}
	if parsed == 0 {
		t.Fatal("no state override to parse")
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("parsing an override changed the story")
	}
}

// TestImportsUnreadPastFoldStates: once the children loaded hold more
// states than a fold copies (a test limit of 4 here;
// MaxFoldImportedStates in production), the loader reads no other child
// (a broken one included: no finding of it), marks those imports Unread,
// and FoldSize counts each as past the limit, so the tree is refused as
// the fold would refuse it. A child already loaded is still taken, and
// the cut reaches into a child's own imports. 1,000 children of 1,000
// states took validate 100 s CPU and 3.7 GB before.
func TestImportsUnreadPastFoldStates(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".kitsoki/keep", "")
	kid := func(n int, imports string) string {
		var b strings.Builder
		b.WriteString("app: {id: k}\nroot: s0\n" + imports + "states:\n")
		for i := range n {
			fmt.Fprintf(&b, "  s%d: {terminal: true}\n", i)
		}
		return b.String()
	}
	write(t, dir, "a/app.yaml", kid(3, ""))
	write(t, dir, "b/app.yaml", kid(2, "imports:\n  g: {source: ../g, entry: s0}\n  h: {source: ../broken, entry: s0}\n"))
	write(t, dir, "g/app.yaml", kid(2, ""))
	write(t, dir, "broken/app.yaml", "states: [this is: not a story\n")
	write(t, dir, "app.yaml", "app: {id: top}\nroot: main\nimports:\n"+
		"  a: {source: ./a, entry: s0}\n  b: {source: ./b, entry: s0}\n  c: {source: ./broken, entry: s0}\n  d: {source: ./a, entry: s0}\n"+
		"states:\n  main: {terminal: true}\n")
	st, ds := Load(dir, Options{maxLoadedStates: 4})
	if len(ds) != 0 || st == nil {
		t.Fatalf("load: %v", render(ds))
	}
	b := st.Imports["b"].Child
	if b == nil || b.Imports["g"].Child == nil || b.Imports["g"].Unread {
		t.Fatal("b and its g (read after a's 3 states, not past 4) are not loaded")
	}
	if h := b.Imports["h"]; h.Child != nil || !h.Unread {
		t.Errorf("b's h read past a's and g's 5 states: child %v, unread %v", h.Child, h.Unread)
	}
	if c := st.Imports["c"]; c.Child != nil || !c.Unread {
		t.Errorf("c read past a's, g's and b's 7 states: child %v, unread %v", c.Child, c.Unread)
	}
	if d := st.Imports["d"]; d.Child != st.Imports["a"].Child || d.Unread {
		t.Error("d, a child already loaded, is not taken")
	}
	sizes := map[*Story][2]int{}
	if _, s := FoldSize(st.Imports["c"], sizes); s <= MaxFoldImportedStates {
		t.Errorf("FoldSize of an unread import: %d states, want past %d", s, MaxFoldImportedStates)
	}
	if _, s := FoldSize(st.Imports["b"], sizes); s <= MaxFoldImportedStates {
		t.Errorf("FoldSize of an import holding an unread one: %d states, want past %d", s, MaxFoldImportedStates)
	}
	if _, ds := Load(dir, Options{maxLoadedStates: 7}); !strings.Contains(render(ds), "broken/app.yaml") {
		t.Errorf("under the limit the broken child is not read:\n%s", render(ds))
	}
	if (Options{}).loadedStates() != MaxFoldImportedStates {
		t.Errorf("the production limit is %d, want MaxFoldImportedStates", (Options{}).loadedStates())
	}
}

// Upstream's fold drops an imported story's providers: and agent_plugins:
// unchecked, a null declaration included ("providers: {p: null}" loads
// under an import, gen write -kind lint -wrap 1 -seed 128431); on its own
// the same story is refused. Ours warns under an import.
func TestChildNullDeclarationsWarn(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: p}\nroot: s\nimports:\n  kid: {source: ./kid}\nstates:\n  s: {}\n")
	write(t, dir, "kid/app.yaml", "app: {id: k}\nroot: a\nproviders:\n  p: null\nagent_plugins:\n  agent.z: null\nstates: {a: {}}\n")
	_, ds := Load(dir, Options{})
	if len(ds) != 2 || diag.HasErrors(ds) {
		t.Errorf("want two warnings, got:\n%s", render(ds))
	}
	_, ds = Load(dir+"/kid", Options{})
	if errs, _ := diag.Count(ds); errs != 2 {
		t.Errorf("on its own: want two errors, got:\n%s", render(ds))
	}
}

// Upstream still decodes an imported story's agent_plugins: strictly: a key,
// a type or a duplicate alias it cannot decode refuses the load, while what
// only its validation would refuse (an unknown plugin, a bad alias prefix,
// a missing command:, an unset ${VAR}) loads (conformance
// child-plugins-decoded).
func TestChildPluginsDecodedStrictly(t *testing.T) {
	refused := map[string]string{
		"unknown key": "agent.l: {plugin: builtin.local_llm, model: m, bogus: 1}",
		"string list": "agent.l: {plugin: subprocess, command: x, args: \"x\"}",
		"bool":        "agent.l: {plugin: builtin.local_llm, model: m, grammar: \"yes\"}",
		"int":         "agent.l: {plugin: builtin.local_llm, model: m, port: \"x\"}",
		"env list":    "agent.l: {plugin: subprocess, command: x, env: [a]}",
		"scalar":      "agent.l: 5",
		"duplicate":   "agent.l: {plugin: bogus}\n  agent.l: {plugin: bogus}",
	}
	loaded := map[string]string{
		"plugin":  "agent.l: {plugin: bogus}",
		"prefix":  "l: {plugin: builtin.local_llm, model: m}",
		"command": "agent.l: {plugin: subprocess}",
		"env":     "agent.l: {plugin: subprocess, command: x, env: {K: \"${KITSOKI_TEST_UNSET_VAR}\"}}",
	}
	for name, decl := range refused {
		dir := t.TempDir()
		write(t, dir, "app.yaml", "app: {id: p}\nroot: s\nimports:\n  kid: {source: ./kid}\nstates:\n  s: {}\n")
		write(t, dir, "kid/app.yaml", "app: {id: k}\nroot: a\nagent_plugins:\n  "+decl+"\nstates: {a: {}}\n")
		if _, ds := Load(dir, Options{}); !diag.HasErrors(ds) {
			t.Errorf("%s: an undecodable child agent_plugins loads:\n%s", name, render(ds))
		}
	}
	for name, decl := range loaded {
		dir := t.TempDir()
		write(t, dir, "app.yaml", "app: {id: p}\nroot: s\nimports:\n  kid: {source: ./kid}\nstates:\n  s: {}\n")
		write(t, dir, "kid/app.yaml", "app: {id: k}\nroot: a\nagent_plugins:\n  "+decl+"\nstates: {a: {}}\n")
		if _, ds := Load(dir, Options{}); diag.HasErrors(ds) || len(ds) == 0 {
			t.Errorf("%s: want warnings only, got:\n%s", name, render(ds))
		}
	}
}

// The same holds for an included file's agent_plugins:, which upstream
// drops after decoding it strictly (conformance child-plugins-decoded).
func TestIncludedPluginsDecodedStrictly(t *testing.T) {
	for decl, refused := range map[string]bool{
		"agent.x: {plugin: bogus, bogus: 1}":                     true,
		"agent.x: {plugin: subprocess, command: x, args: \"x\"}": true,
		"agent.x: {plugin: bogus}":                               false,
		"x: {plugin: subprocess}":                                false,
	} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", "app: {id: p}\nroot: s\ninclude: [rooms/*.yaml]\nstates:\n  s: {}\n")
		write(t, dir, "rooms/x.yaml", "agent_plugins:\n  "+decl+"\n")
		if _, ds := Load(dir, Options{}); diag.HasErrors(ds) != refused {
			t.Errorf("%s: refused=%v, want %v:\n%s", decl, diag.HasErrors(ds), refused, render(ds))
		}
	}
}
