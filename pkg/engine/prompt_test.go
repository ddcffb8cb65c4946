package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestRenderAgentCall(t *testing.T) {
	st := loadStory(t, "prompts")
	p := NewPromptRenderer(st)
	with := st.States[0].OnEnter[0].With
	before, _ := json.Marshal(with)
	rc, err := p.RenderAgentCall("host.agent.ask", "ask_call", with, nil, CallEnv{World: StoryWorld(st), StatePath: "asking"})
	if err != nil {
		t.Fatal(err)
	}
	if rc.Verb != "ask" || rc.Prompt != "Hello greet.\n" || rc.With["call"] != "ask_call" || rc.With["prompt_path"] != "prompts/greet.md" {
		t.Errorf("rendered %+v", rc)
	}
	if after, _ := json.Marshal(with); string(after) != string(before) {
		t.Errorf("the story's with: tree was written: %s -> %s", before, after)
	}
	// args substitution (pkg/eval's examples) is not rendered
	rc, err = p.RenderAgentCall("host.agent.ask", "", with, map[string]any{"who": "{{ x }}"}, CallEnv{World: StoryWorld(st)})
	if err != nil || rc.Prompt != "Hello {{ x }}.\n" || rc.With["call"] != nil {
		t.Errorf("substituted: %+v %v", rc, err)
	}
	if _, err := p.RenderAgentCall("host.run", "", with, nil, CallEnv{}); err == nil {
		t.Error("host.run rendered as an agent call")
	}
}

// A prompt_path that names no file is an error naming the key and the
// path — never sent as the literal prompt text.
func TestRenderMissingPromptPath(t *testing.T) {
	st := loadStory(t, "prompts")
	p := NewPromptRenderer(st)
	w := StoryWorld(st)
	w["kind"] = "nope"
	rc, err := p.RenderAgentCall("host.agent.ask", "ask_call", st.States[0].OnEnter[0].With, nil, CallEnv{World: w})
	var re *RenderError
	if !errors.As(err, &re) || re.Stage != "prompt" || !strings.Contains(err.Error(), `prompt_path "prompts/nope.md" names no file`) {
		t.Fatalf("err = %v", err)
	}
	if rc == nil || rc.With["prompt_path"] != "prompts/nope.md" {
		t.Errorf("a prompt failure still returns the rendered with: %+v", rc)
	}
	// inline prompt: text is inline when it names no file
	rc, err = p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt": "prompts/nope.md"}, nil, CallEnv{})
	if err != nil || rc.Prompt != "prompts/nope.md" {
		t.Errorf("inline prompt: %+v %v", rc, err)
	}
}

// In a run, the missing prompt file is the call's failure: on_error fires
// and the agent is never called.
func TestRunMissingPromptPathIsCallFailure(t *testing.T) {
	called := false
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		called = true
		return answerOf(`"hi"`), nil
	})
	w := StoryWorld(loadStory(t, "prompts"))
	w["kind"] = "nope"
	res, sink := runWant(t, "prompts", "", Options{Agents: agents, World: w}, OutcomeTerminal, "failed")
	if called || !strings.Contains(fmt.Sprint(res.World["last_error"]), "names no file") {
		t.Errorf("called=%v last_error=%v", called, res.World["last_error"])
	}
	ret := sink.kinds(KindHarnessReturned)
	if len(sink.kinds(KindHarnessCalled)) != 1 || len(ret) != 1 || payloadMap(t, ret[0].Payload)["error"] == nil {
		t.Errorf("harness events: %d called, returned %v", len(sink.kinds(KindHarnessCalled)), ret)
	}
}

// One renderer serves concurrent renders (pkg/eval renders in parallel).
func TestRenderConcurrent(t *testing.T) {
	st := loadStory(t, "prompts")
	p := NewPromptRenderer(st)
	with := st.States[0].OnEnter[0].With
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rc, err := p.RenderAgentCall("host.agent.ask", "", with, map[string]any{"who": i}, CallEnv{World: StoryWorld(st)})
			if err == nil && rc.Prompt != fmt.Sprintf("Hello %d.\n", i) {
				err = fmt.Errorf("prompt %q", rc.Prompt)
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// prompts: {overlay, shared} shape the pongo2 search path: the overlay
// wins over the story's prompts/, @shared/ and @story/ resolve.
func TestRenderPromptSearchPath(t *testing.T) {
	st := loadStory(t, "prompts")
	rc, err := NewPromptRenderer(st).RenderAgentCall("host.agent.ask", "", map[string]any{"prompt_path": "prompts/layered.md", "args": map[string]any{"who": "you"}}, nil, CallEnv{})
	if err != nil {
		t.Fatal(err)
	}
	if rc.Prompt != "overlay header\nshared footer\nHello you.\n" {
		t.Errorf("prompt = %q", rc.Prompt)
	}
}

// BenchmarkRenderAgentCall renders a call site with a prompt file (compiled
// once) and a templated with: block, as every agent call of a run and
// every eval example does.
func BenchmarkRenderAgentCall(b *testing.B) {
	st := loadStory(b, "prompts")
	p := NewPromptRenderer(st)
	with := st.States[0].OnEnter[0].With
	env := CallEnv{World: StoryWorld(st), StatePath: "asking"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.RenderAgentCall("host.agent.ask", "ask_call", with, nil, env); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "renders/s")
}

// A ?? in a prompt file and in a file it includes renders its default, as
// upstream's prompt renderer (a stand-in claude on upstream's PATH
// received "P1 pf I1 if I2\n P2"; hunt65's probe): unlike a view's files,
// which upstream parses as written (docs/compat/views.md).
func TestRenderPromptIncludeCoalesce(t *testing.T) {
	st := loadStory(t, "prompts")
	p := NewPromptRenderer(st)
	rc, err := p.RenderAgentCall("host.agent.ask", "", map[string]any{"prompt_path": "prompts/coalesce.md"}, nil, CallEnv{World: StoryWorld(st)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "P1 pf I1 if I2\n P2\n"; rc.Prompt != want {
		t.Errorf("prompt %q, want %q", rc.Prompt, want)
	}
}
