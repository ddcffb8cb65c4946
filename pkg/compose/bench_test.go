package compose

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
	"kitsoki/pkg/trace"
)

// The engine's benchmarks through the composed adapters (RegistryCaller,
// TraceSink), as kitsoki run drives it.

const benchStory = `app: { id: bench, version: 0.1.0 }
agent_plugins:
  agent.fast: { plugin: builtin.inprocess }
hosts: [host.agent.decide]
world:
  n: { type: int, default: 0 }
  v: { type: object, default: {} }
intents:
  next: {}
root: s
states:
  s:
    on_enter:
      - increment: { n: 1 }
      - invoke: host.agent.decide
        agent: agent.fast
        with:
          prompt: "step {{ world.n }}"
          schema: schemas/v.json
        bind: { v: submitted }
    on:
      next: [ { target: s } ]
`

// BenchmarkRun runs a story making 10,000 transitions, each re-entering a
// state whose on_enter calls an in-process agent (schema-validated) and
// binds the answer. Events go to a counting sink (a trace file's fsync per
// line would dominate; see pkg/trace's BenchmarkTraceAppend).
func BenchmarkRun(b *testing.B) {
	dir := storytest.TempTree(b, map[string]string{
		"app.yaml":       benchStory,
		"schemas/v.json": `{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}}}`,
	})
	st := storyload.Load(b, dir, story.Options{})
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	const transitions = 10000
	inputs := make([]engine.Input, transitions)
	for i := range inputs {
		inputs[i] = engine.Input{Intent: "next"}
	}
	var events atomic.Int64
	sink := engine.SinkFunc(func(engine.Event) error { events.Add(1); return nil })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		reg, err := agent.NewRegistryFromPlugins(st.AgentPlugins, agent.RegistryOptions{AppID: "bench", StoryDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		reg.RegisterInProcess("agent.fast", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			return &agent.AskResponse{Submission: json.RawMessage(`{"ok":true}`)}, nil
		}))
		res := engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Inputs: inputs, Agents: RegistryCaller(reg, sink), Sink: sink}})
		reg.Close()
		if res.Outcome != engine.OutcomeRested || res.World["n"] != int64(transitions+1) {
			b.Fatalf("outcome %s n=%v err %v", res.Outcome, res.World["n"], res.Err)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(events.Load())/sec, "events/s")
	b.ReportMetric(float64(transitions*b.N)/sec, "transitions/s")
}

// BenchmarkRunTraced is BenchmarkRun's story for 100 transitions writing a
// real trace file: every event is fsynced before the run goes on, so this
// measures the disk, not the engine.
func BenchmarkRunTraced(b *testing.B) {
	dir := storytest.TempTree(b, map[string]string{"app.yaml": benchStory, "schemas/v.json": `{"type":"object"}`})
	st := storyload.Load(b, dir, story.Options{})
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	inputs := make([]engine.Input, 100)
	for i := range inputs {
		inputs[i] = engine.Input{Intent: "next"}
	}
	var events int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, err := trace.CreateWith(filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i)), trace.Header{AppID: "bench"}, trace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		base := TraceSink(w)
		sink := engine.SinkFunc(func(ev engine.Event) error { events++; return base.Emit(ev) })
		reg, _ := agent.NewRegistryFromPlugins(st.AgentPlugins, agent.RegistryOptions{AppID: "bench", StoryDir: dir})
		reg.RegisterInProcess("agent.fast", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
			return &agent.AskResponse{Submission: json.RawMessage(`{"ok":true}`)}, nil
		}))
		res := engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Inputs: inputs, Agents: RegistryCaller(reg, sink), Sink: sink, NoSnapshot: true}})
		reg.Close()
		w.Close()
		if res.Outcome != engine.OutcomeRested {
			b.Fatal(res.Err)
		}
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
