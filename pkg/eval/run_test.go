package eval

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func f64(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

func i64(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// TestRunEndToEnd runs a real subprocess plugin (four behaviours chosen by
// model) and a real MCP server on loopback through pkg/agent, and checks
// every metric against values known from the plugin's rules.
//
// The plugin holds slow's last call (its 8th: 4 examples × repeat 2, so no
// call of slow queues behind it) until the 39 other calls are done; the
// test then moves the run's Clock 31s forward (past the 30s p95 bar) and
// lets it answer: one call measures 31s and no other call can, with no
// sleep.
func TestRunEndToEnd(t *testing.T) {
	fifo := makeFIFO(t)
	path := writeFixture(t, fixture{
		Profiles: "plug, mcp",
		Models:   "    plug: [good, sloppy, broken, slow]",
		MCP:      true,
		PlugEnv:  fmt.Sprintf(", EVAL_SLOWFIFO: %q, EVAL_SLOWCALL: \"8\"", fifo),
	})
	v := mustValidate(t, path)
	var ahead atomic.Int64 // how far the run's clock is ahead of the wall clock
	others := make(chan struct{})
	var progress []int
	var rep *Report
	var err error
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		rep, err = Run(context.Background(), v, RunOptions{Concurrency: 4, Retries: 1,
			Clock: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) },
			Progress: func(done, total int) {
				if total != 40 {
					t.Errorf("progress total %d, want 40", total)
				}
				progress = append(progress, done)
				if done == 39 {
					close(others)
				}
			}})
	}()
	held := make(chan error, 1)
	go func() {
		_, err := os.ReadFile(fifo) // the plugin has the held call
		held <- err
	}()
	select {
	case err := <-held:
		if err != nil {
			t.Fatal(err)
		}
	case <-ran:
		t.Fatalf("the run ended before the plugin held slow's last call: %v", err)
	}
	select {
	case <-others:
	case <-ran:
		t.Fatalf("the run ended while the plugin held slow's last call: %v", err)
	}
	ahead.Store(int64(31 * time.Second))
	go func() { _ = os.WriteFile(fifo, []byte("go\n"), 0o600) }() // let it answer
	<-ran
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 40 || progress[39] != 40 {
		t.Errorf("progress calls %v", progress)
	}
	if len(rep.Candidates) != 5 {
		t.Fatalf("candidates %d: %+v", len(rep.Candidates), rep.Candidates)
	}
	checkEndToEndCandidates(t, rep)
	checkEndToEndDecision(t, rep, v)
	checkEndToEndSamples(t, rep)
	// Written, it is the latest report and the dataset is passing.
	paths := DefaultReportPaths(v.Dataset, rep, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if _, err := WriteRunReport(rep, v.Story.Dir, paths); err != nil {
		t.Fatal(err)
	}
	st, latest, err := DatasetStatus(v)
	if err != nil || st != StatusPassing || latest.Decision.Evidence != "evals/reports/merge_judge/latest.json" {
		t.Errorf("status %q err %v evidence %q", st, err, latest.Decision.Evidence)
	}
}

// checkEndToEndCandidates checks each candidate's metrics against the
// values the plugin's rules give.
func checkEndToEndCandidates(t *testing.T, rep *Report) {
	t.Helper()
	by := map[string]Candidate{}
	for _, c := range rep.Candidates {
		by[c.Profile+"/"+c.Model] = c
		if c.ExamplesRun != 8 || c.Effort != "low" || c.Repeat != 2 {
			t.Errorf("%s: examples_run %d effort %q repeat %d", c.Key(), c.ExamplesRun, c.Effort, c.Repeat)
		}
	}
	type want struct {
		pass                       bool
		valid, cmp, conform, passK float64
		avgCost                    float64
		retry, fallback            float64
	}
	for key, w := range map[string]want{
		"plug/good":      {true, 1, 1, 1, 1, 0.001, 0, 0},
		"plug/sloppy":    {false, 1, 0.5, 1, 0.5, 0.0005, 0, 0.25},
		"plug/broken":    {false, 0.5, 0.5, 0.75, 0.5, -1, 0.25, 0},
		"plug/slow":      {false, 1, 1, 1, 1, -1, 0, 0},
		"mcp/base-model": {false, 1, 1, 1, 1, 0.002, 0, 0},
	} {
		c, ok := by[key]
		if !ok {
			t.Errorf("no candidate %s", key)
			continue
		}
		got := want{c.Pass, c.SchemaValidRate, c.ComparatorPassRate, c.ContractConformanceRate, f64(c.PassKRate), f64(c.AvgCostUSD), f64(c.RetryRate), f64(c.FallbackRate)}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v (rejected %q)", key, got, w, c.Rejected)
		}
	}
	// slow's last call took 31s of the run's clock (past the 30s bar), the
	// others answer at once: p95 is at least that, p50 under the bar.
	if c := by["plug/slow"]; i64(c.P95LatencyMS) < 31000 || i64(c.P50LatencyMS) >= 30000 || !strings.Contains(c.Rejected, "p95 latency") {
		t.Errorf("slow: p50 %d p95 %d rejected %q", i64(c.P50LatencyMS), i64(c.P95LatencyMS), c.Rejected)
	}
	if c := by["mcp/base-model"]; !strings.Contains(c.Rejected, "avg cost") || c.Backend != "mcp_http" {
		t.Errorf("mcp: rejected %q backend %q", c.Rejected, c.Backend)
	}
	if c := by["plug/good"]; c.Backend != "subprocess" || f64(c.P95CostUSD) != 0.001 {
		t.Errorf("good: backend %q p95 cost %v", c.Backend, f64(c.P95CostUSD))
	}
}

// checkEndToEndDecision checks the selection and the report's hashes.
func checkEndToEndDecision(t *testing.T, rep *Report, v *Validation) {
	t.Helper()
	d := rep.Decision
	if d == nil || d.Strategy != "cheapest_passing" || d.SelectedProfile != "plug" || d.SelectedModel != "good" || d.SelectedEffort != "low" {
		t.Errorf("decision %+v", d)
	}
	if rep.Hashes != v.Hashes || rep.Dataset == "" || rep.Prompt == "" || rep.Schema == "" || rep.Toolbox == emptyHash {
		t.Errorf("report hashes %+v, want %+v", rep.Hashes, v.Hashes)
	}
}

// checkEndToEndSamples checks the failure samples' reasons and payloads.
func checkEndToEndSamples(t *testing.T, rep *Report) {
	t.Helper()
	reasons := map[string]string{}
	for _, fs := range rep.FailureSamples {
		reasons[fs.Model+"/"+fs.Example] = fs.Reason
	}
	for key, frag := range map[string]string{
		"sloppy/e2": `field "intent" got accept want refine`,
		"broken/e2": "schema_invalid",
		"broken/e4": "plugin_crash",
	} {
		if !strings.Contains(reasons[key], frag) {
			t.Errorf("failure sample %s reason %q, want it to contain %q (all: %v)", key, reasons[key], frag, reasons)
		}
	}
	for _, fs := range rep.FailureSamples {
		if fs.Model == "sloppy" && fs.Example == "e2" {
			if fs.Expect == nil || fs.Actual == nil {
				t.Errorf("sloppy/e2 sample lacks expect/actual: %+v", fs)
			}
		}
	}
}

// TestRunJudgeComparator asks a declared agent (the subprocess plugin in
// judge mode) for each verdict through the same dispatch.
func TestRunJudgeComparator(t *testing.T) {
	path := writeFixture(t, fixture{
		Profiles:   "plug",
		Models:     "    plug: [good, sloppy]",
		Repeat:     1,
		Comparator: "{kind: judge, agent: agent.judge}",
	})
	d, err := LoadDataset(path)
	if err != nil {
		t.Fatal(err)
	}
	v := Validate(d, nil)
	if !v.OK() || len(v.Warnings()) != 1 || !strings.Contains(v.Warnings()[0], "judge comparator requires passing evidence") {
		t.Fatalf("findings %v", v.Findings)
	}
	rep, err := Run(context.Background(), v, RunOptions{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Candidates[0].ComparatorPassRate; got != 1 {
		t.Errorf("good under judge: %v", got)
	}
	if got := rep.Candidates[1].ComparatorPassRate; got != 0.5 {
		t.Errorf("sloppy under judge: %v", got)
	}
	if len(rep.FailureSamples) != 2 || !strings.HasPrefix(rep.FailureSamples[0].Reason, "judge: got accept want refine") {
		t.Errorf("samples %+v", rep.FailureSamples)
	}
}

// TestRunInterrupted: a cancelled context returns an error and no report.
func TestRunInterrupted(t *testing.T) {
	path := writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [hang]", Repeat: 1})
	v := mustValidate(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	rep, err := Run(ctx, v, RunOptions{Concurrency: 1})
	if err == nil || rep != nil {
		t.Fatalf("interrupted run gave report %v err %v", rep, err)
	}
	root := datasetRoot(v.Dataset.Path)
	defer root.Close()
	if files, _ := listReports(root, v.Dataset); len(files) != 0 {
		t.Errorf("interrupted run left %v", files)
	}
}

// TestRunRedactsSecrets: a plugin that echoes its env: secret into its
// answer fails, and the failure sample carries [REDACTED], not the value.
func TestRunRedactsSecrets(t *testing.T) {
	path := writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [leaky]", Repeat: 1})
	v := mustValidate(t, path)
	rep, err := Run(context.Background(), v, RunOptions{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rep.Marshal()
	if strings.Contains(string(b), testSecret) {
		t.Fatalf("secret in report:\n%s", b)
	}
	if !strings.Contains(string(b), "token [REDACTED]") {
		t.Errorf("no redacted sample:\n%s", b)
	}
	html, _ := RenderHTML(rep)
	if strings.Contains(string(html), testSecret) {
		t.Error("secret in HTML")
	}
}

// A profile the story does not declare cannot run live.
func TestRunUndeclaredProfile(t *testing.T) {
	d, err := LoadDataset("testdata/pr-refinement/evals/merge_judge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Validate(d, nil), RunOptions{})
	if err == nil || !strings.Contains(err.Error(), `matrix profile "codex-native" is not an agent_plugins alias`) {
		t.Errorf("err %v", err)
	}
}

// TestRunClaudeCLIModel: a builtin.claude_cli candidate's model reaches the
// CLI as --model (the CLI is a stand-in: the real one cannot run here), and
// its total_cost_usd becomes the candidate's cost.
func TestRunClaudeCLIModel(t *testing.T) {
	stand := fakeClaude(t)
	path := writeFixture(t, fixture{
		Profiles: "cli",
		Models:   "    cli: [opus, haiku, sonnet]",
		Repeat:   1,
		Plugins:  "  agent.cli:\n    plugin: builtin.claude_cli\n    claude_bin: " + stand + "\n",
	})
	v := mustValidate(t, path)
	rep, err := Run(context.Background(), v, RunOptions{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	opus, haiku, sonnet := rep.Candidates[0], rep.Candidates[1], rep.Candidates[2]
	if opus.Backend != "builtin.claude_cli" || opus.ComparatorPassRate != 1 || f64(opus.AvgCostUSD) != 0.01 || !strings.Contains(opus.Rejected, "avg cost") {
		t.Errorf("opus %+v", opus)
	}
	if haiku.ComparatorPassRate != 0.5 || f64(haiku.AvgCostUSD) != 0.0002 {
		t.Errorf("haiku %+v", haiku)
	}
	if sonnet.ContractConformanceRate != 0 || sonnet.ComparatorPassRate != 0 {
		t.Errorf("sonnet %+v", sonnet)
	}
	if rep.Decision.SelectedProfile != "" {
		t.Errorf("decision %+v", rep.Decision)
	}
}
