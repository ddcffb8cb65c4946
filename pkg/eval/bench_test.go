package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
)

const benchApp = `app: {id: evalbench, version: 0.1.0, title: "eval benchmark"}
agent_plugins:
  agent.a: {plugin: builtin.inprocess}
  agent.b: {plugin: builtin.inprocess}
  agent.c: {plugin: builtin.inprocess}
hosts: [host.agent.decide]
world:
  n: {type: int, default: 0}
  out: {type: object, default: {}}
intents:
  go: {description: "go"}
root: s
states:
  s:
    on_enter:
      - invoke: host.agent.decide
        id: pick
        agent: agent.a
        with:
          prompt: "Example {{ args.n }}: answer parity."
          schema: schemas/out.json
          args: {n: "{{ world.n }}"}
        bind: {out: submitted}
    on:
      go: [{target: done}]
  done: {terminal: true}
`

// benchStory writes a 3-candidate × 50-example × 5-repeat dataset.
func benchStory(b testing.TB) string {
	dir := b.TempDir()
	var ex strings.Builder
	for i := range 50 {
		parity := "even"
		if i%2 == 1 {
			parity = "odd"
		}
		fmt.Fprintf(&ex, "  - name: n%d\n    args: {n: %d}\n    expect: {parity: %s}\n", i, i, parity)
	}
	files := map[string]string{
		"app.yaml":         benchApp,
		"schemas/out.json": `{"type":"object","required":["parity"],"properties":{"parity":{"enum":["even","odd"]}}}`,
		"evals/pick.yaml": "kind: agent_eval\napp: ../app.yaml\ncall: pick\ntask: {adherence_bar: {min_pass_rate: 0.9}}\n" +
			"matrix: {profiles: [a, b, c], repeat: 5}\ncomparator: {kind: enum, field: parity}\nselection: {strategy: fastest_passing}\nexamples:\n" + ex.String(),
	}
	storytest.WriteTree(b, dir, files)
	return filepath.Join(dir, "evals", "pick.yaml")
}

// parityAgent answers after delay; wrong answers for n%wrongEvery==0 when
// wrongEvery > 0.
func parityAgent(delay time.Duration, wrongEvery int) agent.Agent {
	return agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		args, _ := req.With["args"].(map[string]any)
		n := 0
		fmt.Sscan(fmt.Sprint(args["n"]), &n)
		p := "even"
		if n%2 == 1 {
			p = "odd"
		}
		if wrongEvery > 0 && n%wrongEvery == 0 {
			p = map[string]string{"even": "odd", "odd": "even"}[p]
		}
		sub, _ := json.Marshal(map[string]string{"parity": p})
		return &agent.AskResponse{Submission: sub, Meta: map[string]any{"cost_usd": 0.0001}}, nil
	})
}

// TestRunInProcessMatrix checks the benchmark's matrix once (fast delay) so
// the benchmark measures a run known to be right.
func TestRunInProcessMatrix(t *testing.T) {
	v := mustValidate(t, benchStory(t))
	rep, err := Run(context.Background(), v, RunOptions{Concurrency: 8, InProcess: map[string]agent.Agent{
		"agent.a": parityAgent(0, 0), "agent.b": parityAgent(0, 5), "agent.c": parityAgent(0, 0),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Run.Jobs != 750 || rep.Candidates[0].ComparatorPassRate != 1 || rep.Candidates[1].ComparatorPassRate != 0.8 || rep.Candidates[1].Pass {
		t.Errorf("run %+v candidates %+v", rep.Run, rep.Candidates)
	}
	if rep.Candidates[0].Model != "" || rep.Candidates[0].Backend != "builtin.inprocess" {
		t.Errorf("candidate %+v", rep.Candidates[0])
	}
}

// BenchmarkRunMatrix: 3 candidates × 50 examples × 5 repeats against an
// inprocess agent with a 20 ms delay at -j 8. The ideal wall time is total
// work / 8 = 750 × 20 ms / 8 = 1.875 s; "x-ideal" reports wall / ideal.
func BenchmarkRunMatrix(b *testing.B) {
	v := mustValidate(b, benchStory(b))
	const delay = 20 * time.Millisecond
	in := map[string]agent.Agent{"agent.a": parityAgent(delay, 0), "agent.b": parityAgent(delay, 5), "agent.c": parityAgent(delay, 0)}
	ideal := time.Duration(750) * delay / 8
	b.ResetTimer()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		rep, err := Run(context.Background(), v, RunOptions{Concurrency: 8, InProcess: in})
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
		if rep.Run.Jobs != 750 {
			b.Fatalf("jobs %d", rep.Run.Jobs)
		}
	}
	wall := total / time.Duration(b.N)
	b.ReportMetric(wall.Seconds(), "s/run")
	b.ReportMetric(ideal.Seconds(), "ideal-s")
	b.ReportMetric(float64(wall)/float64(ideal), "x-ideal")
}
