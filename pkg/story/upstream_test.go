package story

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUpstreamStyleStoriesLoadClean: stories written to the upstream
// format (the reference's appendix story, and a kitchen-sink story using
// most of the vocabulary) load with no diagnostic at all.
func TestUpstreamStyleStoriesLoadClean(t *testing.T) {
	ents, err := os.ReadDir("testdata/upstream")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Run(e.Name(), func(t *testing.T) {
			st, ds := Load(filepath.Join("testdata/upstream", e.Name()), Options{LookupEnv: noEnv})
			if st == nil || len(ds) != 0 {
				t.Fatalf("diagnostics:\n%s", render(ds))
			}
		})
	}
}

func TestKitchenSinkModel(t *testing.T) {
	st, _ := Load("testdata/upstream/kitchen-sink", Options{LookupEnv: noEnv})
	checks := []struct {
		name string
		ok   bool
	}{
		{"compound child", st.State("work.fix") != nil && st.State("work").Initial == "fix"},
		{"parallel", st.State("regions").Parallel && len(st.State("regions").Children) == 2},
		{"nested region", st.State("regions.left.b") != nil && st.State("regions.left.b").Terminal},
		{"import child", st.Imports["sub"].Child != nil && st.State("sub").Import != nil},
		{"phase target", st.phaseGen["plan_phase_executing"]},
		{"meta modes", st.MetaModes["ops.fix"].Default && st.MetaModes["ops.ask"].ReturnIntent == "back"},
		{"persona file inlined", st.Agents["fixer"].SystemPromptResolved == "You fix tests.\n"},
		{"bash profile read-only", st.Agents["reader"].BashProfile.ReadOnly},
		{"providers", st.Providers["quick"].Effort == "low"},
		{"plugins", st.AgentPlugins["agent.sub"].Args[0] == "--fast" && st.AgentPlugins["agent.local"].Port == 8088},
		{"selection", st.State("work.judge").OnEnter[0].Selection.Evidence == "evals/judge.json"},
		{"world inline default", st.Var("plan").Default.(map[string]any)["goal"] == "ship"},
		{"wildcard arm", len(st.State("hub").On["*"]) == 1},
		{"transition view", st.State("hub").On["tick"][0].View.Template == "Ticked"},
		{"view elements", len(st.State("hub").View.Elements) == 7},
		{"off ramp", st.State("hub").AgentOffRamp.Agent == "judge"},
		{"timeout", st.State("hub").Timeout.Target == "done"},
		{"proposal on_complete", len(st.Proposals["release"].Execute.OnComplete) == 1},
		{"routing", st.Routing.FreeFormFallbackState == "chat"},
		{"slot synonyms", st.Intents["pick"].Slots["color"].Synonyms["red"][0] == "crimson"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: not modelled", c.name)
		}
	}
}

func TestResolveInvoke(t *testing.T) {
	st, _ := Load("testdata/upstream/kitchen-sink", Options{LookupEnv: noEnv})
	if got, ok := st.ResolveInvoke("iface.vcs.push"); !ok || got != "host.git.push" {
		t.Errorf("iface.vcs.push -> %q %v", got, ok)
	}
	if got, ok := st.ResolveInvoke("host.run"); !ok || got != "host.run" {
		t.Errorf("host.run -> %q %v", got, ok)
	}
	if _, ok := st.ResolveInvoke("iface.nope.x"); ok {
		t.Errorf("undeclared iface resolved")
	}
}
