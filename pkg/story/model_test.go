package story

import (
	"testing"
)

func TestModelFilledFromCorpus(t *testing.T) {
	st, ds := Load("testdata/corpus/fix-tests", Options{})
	if st == nil {
		t.Fatalf("nil story: %v", ds)
	}
	if st.Root != "idle" || st.App.ID != "fix-tests" {
		t.Fatalf("root %q id %q", st.Root, st.App.ID)
	}
	if len(st.Manifests) != 2 {
		t.Errorf("manifests = %v, want app.yaml + rooms/pipeline.yaml", st.Manifests)
	}
	if st.World[0].Name != "test_cmd" || st.World[0].Default != "make test" || st.Var("max_cycles").Default != 3 {
		t.Errorf("world not decoded in order: %+v", st.World[0])
	}
	run := st.State("running_executing")
	if run == nil || len(run.OnEnter) != 1 {
		t.Fatalf("running_executing: %+v", run)
	}
	e := run.OnEnter[0]
	if !e.Background() || e.Invoke != "host.run" || len(e.OnComplete()) != 3 || e.ID() != "run_initial" {
		t.Errorf("effect = %+v", e)
	}
	if e.With["cmd"] != "{{ world.test_cmd }}" {
		t.Errorf("with.cmd = %v", e.With["cmd"])
	}
	if e.Pos.Line == 0 || e.Pos.File == "" {
		t.Errorf("effect has no position: %+v", e.Pos)
	}
	if got := e.OnComplete()[2].Target(); !IsTemplated(got) {
		t.Errorf("on_complete target %q should be templated", got)
	}
	idle := st.State("idle")
	if idle.On[0].Intent != "start" || idle.Arms("start")[0].Target != "running_executing" {
		t.Errorf("on order %v", idle.OnNames())
	}
	set := idle.Arms("start")[0].Effects[0].Set
	if set[0].Key != "cycle" || set[0].Value != 0 || set[3].Key != "test_cmd" {
		t.Errorf("set order: %+v", set)
	}
	if ap := st.AgentPlugins[DefaultAgentAlias]; ap == nil || !ap.Injected || ap.Plugin != PluginClaudeCLI {
		t.Errorf("agent.claude not injected: %+v", ap)
	}
	fixer := st.Agents["fixer"]
	if fixer == nil || fixer.BashProfile == nil || len(fixer.BashProfile.Commands) != 2 || fixer.ExternalSideEffect == nil || *fixer.ExternalSideEffect {
		t.Errorf("persona: %+v", fixer)
	}
	if idle.View == nil || idle.View.Kind != "extends" || idle.View.Extends != "base" || len(idle.View.Blocks["body"]) != 1 {
		t.Errorf("view: %+v", idle.View)
	}
}

func TestPluginsFromCorpus(t *testing.T) {
	st, _ := Load("testdata/corpus/routing-demo/app.yaml", Options{})
	ap := st.AgentPlugins["agent.local"]
	if ap == nil || ap.Plugin != PluginLocalLLM || !ap.Grammar || ap.Model != "qwen2.5-1.5b-instruct" {
		t.Fatalf("agent.local = %+v", ap)
	}
	if st.Routing == nil || st.Routing.ExtractLLMAgent != "agent.local" || *st.Routing.SemanticHighBar != 0.80 {
		t.Errorf("routing = %+v", st.Routing)
	}
}

func TestResolve(t *testing.T) {
	src := `
app: {id: r}
root: a
exits: {done: {}}
states:
  a:
    type: compound
    initial: b
    states:
      b:
        states:
          c: {}
      d: {}
  e: {}
`
	st, ds := LoadSource("r.yaml", []byte(src), Options{})
	if st == nil {
		t.Fatal(ds)
	}
	c := st.State("a.b.c")
	if c == nil {
		t.Fatal("a.b.c missing")
	}
	cases := []struct {
		target string
		kind   TargetKind
		path   string
		err    bool
	}{
		{".", TargetStay, "", false},
		{"", TargetStay, "", false},
		{"e", TargetState, "e", false},
		{"a/d", TargetState, "a.d", false},
		{"a.b", TargetState, "a.b", false},
		{"../", TargetState, "a.b", false},
		{"../../d", TargetState, "a.d", false},
		{"../../../e", TargetState, "e", false},
		{"../../../../x", 0, "", true},
		{"d", 0, "", true}, // a bare name is absolute, not a sibling
		{"@exit:done", TargetExit, "", false},
		{"{{ world.next }}", TargetTemplate, "", false},
		{"{{go", TargetTemplate, "", false},
		// a {% %} tag alone is a path, looked up as written (tag-only-targets)
		{"{% if true %}e{% endif %}", 0, "", true},
		{"{%e", 0, "", true},
	}
	for _, tc := range cases {
		got, err := c.Resolve(tc.target)
		if (err != nil) != tc.err {
			t.Errorf("Resolve(%q) err = %v", tc.target, err)
			continue
		}
		if err == nil && (got.Kind != tc.kind || got.Path != tc.path) {
			t.Errorf("Resolve(%q) = %+v, want kind %d path %q", tc.target, got, tc.kind, tc.path)
		}
	}
	if got, _ := c.Resolve("a.b.c"); !got.Reentry {
		t.Errorf("self target should be re-entry")
	}
}
