package eval

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// The eval renderer and a live run share engine.PromptRenderer: for every
// call site, rendering an example whose args are what the run's with.args
// rendered to gives the prompt and with: block the run sent.
func TestRenderMatchesLiveRun(t *testing.T) {
	st := storyload.Load(t, "testdata/render", story.Options{})
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var calls []engine.AgentCall
	agents := engine.AgentCallerFunc(func(ctx context.Context, c engine.AgentCall) (*engine.AgentAnswer, error) {
		calls = append(calls, c)
		return &engine.AgentAnswer{Submission: []byte(`{"decision":"ok"}`), Value: map[string]any{"decision": "ok"}}, nil
	})
	res := engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Agents: agents, NoSnapshot: true}})
	if res.Err != nil || len(calls) != 4 {
		t.Fatalf("run: %v, %d calls", res.Err, len(calls))
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	for _, c := range calls {
		cs := findCallSite(st, c.EffectID)
		if cs == nil {
			t.Fatalf("no call site %q", c.EffectID)
		}
		args, _ := c.With["args"].(map[string]any)
		if cs.Verb() == "task" {
			args, _ = c.With["context"].(map[string]any)["args"].(map[string]any)
		}
		prompt, with, err := newRenderer(st, cs).Render(args)
		if err != nil {
			t.Fatalf("%s: %v", c.EffectID, err)
		}
		if prompt != c.Prompt {
			t.Errorf("%s: eval prompt %q, live %q", c.EffectID, prompt, c.Prompt)
		}
		if js(with) != js(c.With) {
			t.Errorf("%s: eval with %s\nlive with %s", c.EffectID, js(with), js(c.With))
		}
	}
	if want := "You are a judge.\nJudge tabs vs spaces (2); world says tabs vs spaces in the judging room.\n"; calls[0].Prompt != want {
		t.Errorf("live prompt file = %q, want %q", calls[0].Prompt, want)
	}
}

// An example's args replace the call site's template args (context.args
// for a task call without top-level args) and are not rendered.
func TestRenderSubstitutesExampleArgs(t *testing.T) {
	st := storyload.Load(t, "testdata/render", story.Options{})
	p, with, err := newRenderer(st, findCallSite(st, "judge_call")).Render(map[string]any{"topic": "{{ world.topic }}", "n": 7})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p, "Judge {{ world.topic }} (7)") || with["call"] != "judge_call" || with["note"] != "level 3" {
		t.Errorf("prompt %q with %v", p, with)
	}
	p, with, err = newRenderer(st, findCallSite(st, "task_call")).Render(map[string]any{"file": "x.go"})
	if err != nil {
		t.Fatal(err)
	}
	if p != "Fix x.go for tabs vs spaces" || with["args"] != nil {
		t.Errorf("task prompt %q with %v", p, with)
	}
}
