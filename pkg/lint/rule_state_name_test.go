package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// phasesStateNameStory has a phases: template whose generated states take
// the graph entry's id: "review#2" yields "review#2_executing", which the
// active-state string splits on "#". The template's unreachable-looking
// states and its other findings must not be repeated for each entry.
const phasesStateNameStory = `app: { id: psn, version: 0.1.0 }
intents: { go: {} }
root: start
states:
  start:
    on:
      go: [{ target: "plan_executing" }]
  done: { terminal: true }
phase_templates:
  step:
    states:
      "{id}_executing":
        on:
          go: [{ target: done }]
phases:
  template: step
  graph:
    plan: { next: {} }
    "review#2": { next: {} }
`

// TestStateNameExpandedPhases: a state name holding "#" that a phases:
// template generates gets the state-name warning once, at the template
// state's line, naming the generated state and its graph entry; the
// other expanded states add no warning of their own.
func TestStateNameExpandedPhases(t *testing.T) {
	_, ds := LoadSource("app.yaml", []byte(phasesStateNameStory), story.Options{})
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == ruleStateName.ID {
			got = append(got, d)
		} else {
			t.Errorf("unexpected finding %s:%d:%d: %s: %s [%s]", d.File, d.Line, d.Col, d.Severity, d.Message, d.Rule)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d state-name findings, want 1 for the generated \"review#2_executing\"", len(got))
	}
	d := got[0]
	if d.Severity != diag.Warning || d.Line != 12 || !strings.Contains(d.Message, `state "review#2_executing"`) || !strings.Contains(d.Message, `phases.graph["review#2"]`) {
		t.Errorf("state-name finding %d:%d %s %q, want a warning at the template state (line 12) naming the generated state and its entry", d.Line, d.Col, d.Severity, d.Message)
	}
}

// TestPhaseKeysIDIsTheGraphKey: {id} in a template state's key is the
// graph key, as the expansion makes it, even where the template gives id a
// default: two entries expand to two states, not one (the existing engine
// validates this story, and its target to plan_executing).
func TestPhaseKeysIDIsTheGraphKey(t *testing.T) {
	src := strings.Replace(phasesStateNameStory, "  step:\n    states:", "  step:\n    parameters:\n      id: { default: x }\n    states:", 1)
	src = strings.Replace(src, `"review#2": { next: {} }`, "review: { next: {} }", 1)
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	for _, d := range ds {
		if d.Rule == story.RulePhases.ID || d.Rule == ruleTarget.ID {
			t.Errorf("%s", d)
		}
	}
}
