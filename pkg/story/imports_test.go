package story

import (
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

func TestImportCycleNamesTheChain(t *testing.T) {
	_, ds := Load("testdata/broken/imports", Options{})
	found := false
	for _, d := range ds {
		if strings.Contains(d.Message, "cycle detected via") && strings.Count(d.Message, "->") == 2 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no cycle chain:\n%s", render(ds))
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
