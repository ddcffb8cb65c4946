package localllme2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"kitsoki/cmd"
	"kitsoki/internal/testing/agenttest"
	"kitsoki/internal/testing/llamastandin/standintest"
	"kitsoki/internal/testing/proctest"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/agent/localllm"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// End to end, no internet: `kitsoki run` on a story whose decide gate goes
// to agent.local in managed mode. The llama-server is the STAND-IN built by
// the test and packed in a tar.gz served from loopback with its real
// sha256 (KITSOKI_PINS overlay); the cache starts empty (KITSOKI_CACHE_DIR).

const gateStory = `app:
  id: local-gate
  version: 0.1.0
  title: "A local decide gate"

agent_plugins:
  agent.local:
    plugin: builtin.local_llm
    model: MODEL
    grammar: true

hosts:
  - host.agent.decide

world:
  verdict: { type: object, default: {} }

intents:
  decided: { description: "(internal) the gate has decided." }

exits:
  approved: {}
  rejected: {}

root: judging

states:
  judging:
    description: "Asking the local model."
    on_enter:
      - invoke: host.agent.decide
        agent: agent.local
        id: judge
        with:
          prompt: prompts/judge.md
          schema: schemas/SCHEMA
        bind: { verdict: submitted }
      # false where the chain reaches it; fires in the post-bind pass
      - when: "len(world.verdict) > 0"
        emit_intent: decided
    on:
      decided:
        - when: 'world.verdict.verdict == "approve"'
          target: "@exit:approved"
        - default: true
          target: "@exit:rejected"
`

const (
	gateSchema = `{"type":"object","required":["verdict","confidence"],"properties":{"verdict":{"enum":["approve","reject"]},"confidence":{"type":"number","minimum":0,"maximum":1}}}`
	// Inside the grammar subset, but the grammar constrains shape, not
	// range: the stand-in answers confidence 0.5, above the maximum, the
	// way a small model answers 95 for a 0..1 field. A fail-open answer.
	strictSchema = `{"type":"object","required":["verdict","confidence"],"properties":{"verdict":{"enum":["approve","reject"]},"confidence":{"type":"number","maximum":0.4}}}`
)

func writeGateStory(t *testing.T, model, schemaFile string) string {
	t.Helper()
	return storytest.TempTree(t, map[string]string{
		"app.yaml":                 strings.NewReplacer("MODEL", model, "SCHEMA", schemaFile).Replace(gateStory),
		"prompts/judge.md":         "Approve this change? Answer with a verdict and a confidence between 0 and 1.\n",
		"schemas/verdict.json":     gateSchema,
		"schemas/strict_gate.json": strictSchema,
	})
}

func managedRunEnv(t *testing.T) (*artifacts, string) {
	t.Helper()
	a := newArtifacts(t)
	cache := t.TempDir()
	t.Setenv("KITSOKI_PINS", a.Pins)
	t.Setenv("KITSOKI_CACHE_DIR", cache)
	t.Setenv("KITSOKI_MIRROR", "")
	t.Setenv(standintest.EnvLoadMS, "50")
	if runtime.GOOS == "linux" {
		t.Setenv(standintest.EnvRequireLib, "libllama.so.0")
	}
	return a, cache
}

func TestKitsokiRunManagedLocalLLMColdThenWarm(t *testing.T) {
	proctest.CheckNoChildren(t)
	a, cache := managedRunEnv(t)
	dir := writeGateStory(t, a.Model, "verdict.json")

	var disclosed string
	run := func(name string) (summary map[string]any, events []map[string]any) {
		t.Helper()
		tracePath := filepath.Join(t.TempDir(), name+".jsonl")
		var stdout, stderr bytes.Buffer
		var code int
		disclosed = captureStderr(t, func() {
			code = cmd.Run([]string{"run", dir, "--json", "--trace", tracePath}, &stdout, &stderr)
		})
		if code != 0 {
			t.Fatalf("%s: kitsoki run exit %d\nstdout: %s\nstderr: %s", name, code, stdout.String(), stderr.String())
		}
		if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil {
			t.Fatalf("%s: summary: %v\n%s", name, err, stdout.String())
		}
		return summary, readTrace(t, tracePath)
	}

	sum, evs := run("cold")
	if sum["outcome"] != "exit" || sum["exit"] != "approved" {
		t.Fatalf("cold run: %v", sum)
	}
	for _, want := range []string{"agent.local: downloading llama-server-standin (", "agent.local: downloading " + a.Model + " (39 B) from 127.0.0.1:"} {
		if !strings.Contains(disclosed, want) {
			t.Errorf("the cold run's download disclosure lacks %q:\n%s", want, disclosed)
		}
	}
	coldHits := a.Hits()
	if coldHits < 2 {
		t.Fatalf("cold run made %d artifact requests, want the archive and the model", coldHits)
	}
	for _, want := range []string{"bin", "models"} {
		if _, err := os.Stat(filepath.Join(cache, want)); err != nil {
			t.Fatalf("cache: %v", err)
		}
	}
	complete := findEvent(t, evs, "agent.call.complete")
	meta, _ := complete["payload"].(map[string]any)["meta"].(map[string]any)
	if meta["grammar"] != true || meta["model"] != a.Model || meta["json_schema"] != false {
		t.Fatalf("meta %v", meta)
	}

	sum, _ = run("warm")
	if sum["outcome"] != "exit" || sum["exit"] != "approved" {
		t.Fatalf("warm run: %v", sum)
	}
	if a.Hits() != coldHits || strings.Contains(disclosed, "downloading") {
		t.Fatalf("warm run went to the network (%d -> %d requests): %s", coldHits, a.Hits(), disclosed)
	}
}

// captureStderr runs f with os.Stderr redirected to a pipe (the download
// disclosure goes to the process's stderr) and returns what it wrote.
func captureStderr(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() {
		os.Stderr = old
	}()
	f()
	os.Stderr = old
	w.Close()
	out := <-done
	r.Close()
	return out
}

// The fail-open answer of agent.local is rejected by the schema and the
// call falls back to agent.claude — here an in-process stand-in for the
// claude CLI registered by the test — through the engine's real pipeline.
func TestEngineRunLocalFailOpenFallsBackToClaude(t *testing.T) {
	proctest.CheckNoChildren(t)
	a, _ := managedRunEnv(t)
	dir := writeGateStory(t, a.Model, "strict_gate.json")

	st, ds := lint.Load(dir, story.Options{})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []engine.Event
	sink := engine.SinkFunc(func(ev engine.Event) error {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
		return nil
	})
	claude := &agenttest.StubAgent{Answer: `{"verdict":"reject","confidence":0.3}`}
	var res *engine.Result
	disclosed := captureStderr(t, func() {
		reg, err := agent.NewRegistryFromPlugins(st.AgentPlugins, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir, Sink: compose.AgentSink(sink),
			Builders: map[string]agent.Builder{story.PluginLocalLLM: localllm.New}})
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := reg.Close(); err != nil {
				t.Error(err)
			}
		}()
		if err := reg.RegisterInProcess(story.DefaultAgentAlias, claude); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res = engine.RunSession(ctx, m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{SessionID: "s1", Agents: compose.RegistryCaller(reg, sink), Sink: sink}})
	})
	if !strings.Contains(disclosed, "downloading "+a.Model) {
		t.Errorf("no disclosure: %s", disclosed)
	}
	if res.Outcome != engine.OutcomeExit || res.Exit != "rejected" {
		t.Fatalf("run: %s %s %v", res.Outcome, res.Exit, res.Err)
	}
	if len(claude.Calls()) != 1 {
		t.Fatalf("agent.claude asked %d times", len(claude.Calls()))
	}
	var starts, completes int
	for _, ev := range events {
		switch ev.Kind {
		case "agent.call.start":
			starts++
		case "agent.call.complete":
			completes++
			b, _ := json.Marshal(ev.Payload)
			if !strings.Contains(string(b), `"substitution":{"reason":"schema_invalid","original_plugin":"agent.local","fallback_plugin":"agent.claude"`) ||
				!strings.Contains(string(b), `"fallback_of":"agent.local"`) {
				t.Fatalf("complete payload %s", b)
			}
			if ev.CallID != claude.Calls()[0].CallID {
				t.Fatalf("call ids differ: %s vs %s", ev.CallID, claude.Calls()[0].CallID)
			}
		case "agent.call.error":
			t.Fatalf("error event %+v", ev)
		}
	}
	if starts != 1 || completes != 1 {
		t.Fatalf("%d starts, %d completes: one call, one pair", starts, completes)
	}
}

func readTrace(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("trace line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func findEvent(t *testing.T, evs []map[string]any, kind string) map[string]any {
	t.Helper()
	for _, e := range evs {
		if e["kind"] == kind {
			return e
		}
	}
	t.Fatalf("no %s event in the trace", kind)
	return nil
}
