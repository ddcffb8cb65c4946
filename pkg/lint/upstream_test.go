package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// TestUpstreamStyleStoriesLoadClean: stories written to the upstream
// format (the reference's appendix story, a kitchen-sink story using most
// of the vocabulary, and one story per corner of the format that upstream
// accepts) load with no error. A story directory may hold warnings.txt:
// one substring per line, each matching exactly one expected warning (for
// the warnings the issue asks for); any other diagnostic fails the test.
func TestUpstreamStyleStoriesLoadClean(t *testing.T) {
	ents, err := os.ReadDir(fixtures + "/upstream")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(fixtures+"/upstream", e.Name())
			var want []string
			if data, err := os.ReadFile(filepath.Join(dir, "warnings.txt")); err == nil {
				for _, l := range strings.Split(string(data), "\n") {
					if l = strings.TrimSpace(l); l != "" {
						want = append(want, l)
					}
				}
			}
			st, ds := Load(dir, story.Options{LookupEnv: compatEnv})
			if st == nil {
				t.Fatalf("no model; diagnostics:\n%s", render(ds))
			}
			var unexpected []diag.Diagnostic
			matched := make([]bool, len(want))
		next:
			for _, d := range ds {
				if d.Severity == diag.Warning {
					for i, w := range want {
						if !matched[i] && strings.Contains(d.Message, w) {
							matched[i] = true
							continue next
						}
					}
				}
				unexpected = append(unexpected, d)
			}
			if len(unexpected) > 0 {
				t.Errorf("unexpected diagnostics:\n%s", render(unexpected))
			}
			for i, w := range want {
				if !matched[i] {
					t.Errorf("expected warning containing %q was not reported", w)
				}
			}
		})
	}
}

// compatEnv is the fixed environment the upstream-style stories see: the
// variables their agent cwd/env/headers reference, nothing else.
func compatEnv(name string) (string, bool) {
	v, ok := map[string]string{"HOME": "/home/compat", "API_TOKEN": "t0k3n", "WORK_ROOT": "/srv/work"}[name]
	return v, ok
}

func TestKitchenSinkModel(t *testing.T) {
	st, _ := Load(fixtures+"/upstream/kitchen-sink", story.Options{LookupEnv: noEnv})
	checks := []struct {
		name string
		ok   bool
	}{
		{"compound child", st.State("work.fix") != nil && st.State("work").Initial() == "fix"},
		{"parallel", st.State("regions").Parallel && len(st.State("regions").Children) == 2},
		{"nested region", st.State("regions.left.b") != nil && st.State("regions.left.b").Terminal},
		{"import child", st.Imports["sub"].Child != nil && st.State("sub").Import != nil},
		{"phase target", st.PhaseGenerated("plan_phase_executing")},
		{"meta modes", st.MetaModes["ops.fix"].Default && st.MetaModes["ops.ask"].ReturnIntent == "back"},
		{"persona file inlined", st.Agents["fixer"].SystemPromptResolved == "You fix tests.\n"},
		{"bash profile read-only", st.Agents["reader"].BashProfile.ReadOnly},
		{"providers", st.Providers["quick"].Effort == "low"},
		{"plugins", st.AgentPlugins["agent.sub"].Args[0] == "--fast" && st.AgentPlugins["agent.local"].Port == 8088},
		{"selection", st.State("work.judge").OnEnter[0].Selection().Evidence == "evals/judge.json"},
		{"world inline default", st.Var("plan").Default.(map[string]any)["goal"] == "ship"},
		{"wildcard arm", len(st.State("hub").Arms("*")) == 1},
		{"transition view", st.State("hub").Arms("tick")[0].View().Template == "Ticked"},
		{"view elements", len(st.State("hub").View.Elements) == 7},
		{"off ramp", st.State("hub").AgentOffRamp().Agent == "judge"},
		{"timeout", st.State("hub").Timeout().Target == "done"},
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
	st, _ := Load(fixtures+"/upstream/kitchen-sink", story.Options{LookupEnv: noEnv})
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
