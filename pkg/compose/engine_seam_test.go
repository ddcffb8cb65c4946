package compose_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/testing/proctest"
	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

const seamStory = `app: { id: seam, version: 0.1.0 }
agent_plugins:
  agent.fixer:
    plugin: builtin.inprocess
hosts: [host.agent.decide]
world:
  verdict: { type: object, default: {} }
  meta:    { type: object, default: {} }
  ok:      { type: bool, default: false }
  code:    { type: int, default: -1 }
  same:    { type: object, default: {} }
root: deciding
states:
  deciding:
    on_enter:
      - invoke: host.agent.decide
        agent: agent.fixer
        with:
          prompt: "decide {{ world.code }}"
          schema: schemas/verdict.json
        bind: { verdict: submission, same: submitted, meta: meta, ok: ok, code: exit_code }
        on_error: failed
    terminal: true
  failed:
    terminal: true
`

// seamPlugins is the echoagent test plugin (a real subprocess plugin),
// built on first use; TestMain removes it.
var seamPlugins = storytest.Programs{Pkgs: []string{"kitsoki/internal/testing/agentplugins/echoagent"}}

func TestMain(m *testing.M) {
	code := m.Run()
	seamPlugins.Remove()
	os.Exit(code)
}

// seamDir writes seamStory and its schema into a fresh directory.
func seamDir(t *testing.T) string {
	t.Helper()
	return storytest.TempTree(t, map[string]string{
		"schemas/verdict.json": `{"type":"object","required":["decision"],"properties":{"decision":{"enum":["accept","reject"]}}}`,
		"app.yaml":             seamStory,
	})
}

// seamMachine loads and compiles the story in dir.
func seamMachine(t *testing.T, dir string) (*story.Story, *engine.Machine) {
	t.Helper()
	st := storyload.Load(t, filepath.Join(dir, "app.yaml"), story.Options{})
	m, err := engine.Compile(st, engine.CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st, m
}

// The seam between the engine and the agent layer, through the real
// engine: bind: exposes submission/submitted/meta/ok/exit_code (seed §2),
// and a failed call sets world.host_error.kind to the AskError kind.
func TestEngineSeamBindKeysAndErrorKind(t *testing.T) {
	st, m := seamMachine(t, seamDir(t))
	for _, tc := range []struct {
		name, answer, wantState, wantKind string
	}{
		{"valid", `{"decision":"accept"}`, "deciding", ""},
		{"schema invalid", `{"decision":"maybe"}`, "failed", string(agent.KindSchemaInvalid)},
		{"malformed JSON", `{"decision":`, "failed", string(agent.KindSchemaInvalid)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg, err := agent.NewRegistry(st, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			if err := reg.RegisterInProcess("agent.fixer", agent.AgentFunc(func(ctx context.Context, req *agent.AskRequest) (*agent.AskResponse, error) {
				return &agent.AskResponse{Submission: json.RawMessage(tc.answer), Meta: map[string]any{"model": "m1", "cost_usd": 0.5}}, nil
			})); err != nil {
				t.Fatal(err)
			}
			res := engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Agents: compose.RegistryCaller(reg, nil)}})
			if res.Outcome != engine.OutcomeTerminal || res.State != tc.wantState {
				t.Fatalf("outcome %s in %s (err %v), want terminal in %s", res.Outcome, res.State, res.Err, tc.wantState)
			}
			w := res.World
			if tc.wantKind == "" {
				if w["verdict"].(map[string]any)["decision"] != "accept" || w["same"].(map[string]any)["decision"] != "accept" {
					t.Errorf("submission/submitted: %v / %v", w["verdict"], w["same"])
				}
				if w["meta"].(map[string]any)["model"] != "m1" || w["ok"] != true {
					t.Errorf("meta/ok: %v / %v", w["meta"], w["ok"])
				}
				if c, _ := w["code"].(int64); c != 0 {
					t.Errorf("exit_code bound %v (%T), want 0", w["code"], w["code"])
				}
				return
			}
			he, _ := w["host_error"].(map[string]any)
			if he["kind"] != tc.wantKind {
				t.Errorf("host_error = %v, want kind %q", he, tc.wantKind)
			}
		})
	}
}

// A cassette replay whose recorded answer fails the schema: the engine's
// call summary names the call with the id the trace's agent.call.error
// carries (the cassette-derived one), not the live key.
func TestEngineSeamFailedCassetteCallKeepsItsCallID(t *testing.T) {
	dir := seamDir(t)
	cas := filepath.Join(dir, "c.cassette.yaml")
	os.WriteFile(cas, []byte(`kind: host_cassette
app_id: seam
episodes:
  - id: bad_verdict
    match: { handler: agent.fixer }
    agent:
      verb: decide
      response: '{"decision":"maybe"}'
`), 0o644)
	st, m := seamMachine(t, dir)
	c, err := agent.LoadCassette(cas)
	if err != nil {
		t.Fatal(err)
	}
	var errorIDs []string
	sink := engine.SinkFunc(func(ev engine.Event) error {
		if ev.Kind == agent.EventCallError {
			errorIDs = append(errorIDs, ev.CallID)
		}
		return nil
	})
	reg, err := agent.NewRegistry(st, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir, Cassette: c})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	res := engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Agents: compose.RegistryCaller(reg, sink), Sink: sink, NoSnapshot: true}})
	if res.State != "failed" || len(res.Calls) != 1 || len(errorIDs) != 1 {
		t.Fatalf("state %s, calls %+v, error events %v (err %v)", res.State, res.Calls, errorIDs, res.Err)
	}
	want := agentcall.CassetteID("seam", "bad_verdict", 0)
	if errorIDs[0] != want || res.Calls[0].CallID != want {
		t.Fatalf("trace call_id %s, summary %s, want both %s", errorIDs[0], res.Calls[0].CallID, want)
	}
}

// The same bind keys with a real subprocess plugin (the echoagent program)
// declared in the story: the answer reaches world through the wire, and a
// plugin crash sets host_error.kind plugin_crash.
func TestEngineSeamBindKeysSubprocess(t *testing.T) {
	bin := seamPlugins.Path(t, "echoagent")
	for _, tc := range []struct{ fault, wantState, wantKind string }{
		{"", "deciding", ""},
		{"crash", "failed", string(agent.KindPluginCrash)},
	} {
		t.Run("fault="+tc.fault, func(t *testing.T) {
			proctest.CheckNoChildren(t)
			dir := storytest.TempTree(t, map[string]string{
				"schemas/verdict.json": `{"type":"object","required":["echo_verb"],"properties":{"echo_verb":{"const":"decide"}}}`,
				"app.yaml": strings.Replace(seamStory, "plugin: builtin.inprocess",
					"plugin: subprocess\n    command: "+strconv.Quote(bin)+"\n    env: {KITSOKI_TEST_FAULT: \""+tc.fault+"\", ECHO_COST_USD: \"0.5\"}", 1),
			})
			st, m := seamMachine(t, dir)
			reg, err := agent.NewRegistry(st, agent.RegistryOptions{AppID: st.App.ID, StoryDir: st.Dir})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			res := engine.RunSession(context.Background(), m, engine.SessionOptions{Bootstrap: true, Options: engine.Options{Agents: compose.RegistryCaller(reg, nil)}})
			if res.Outcome != engine.OutcomeTerminal || res.State != tc.wantState {
				t.Fatalf("outcome %s in %s (err %v), want terminal in %s", res.Outcome, res.State, res.Err, tc.wantState)
			}
			w := res.World
			if tc.wantKind != "" {
				if he, _ := w["host_error"].(map[string]any); he["kind"] != tc.wantKind {
					t.Fatalf("host_error = %v, want kind %q", he, tc.wantKind)
				}
				return
			}
			if w["verdict"].(map[string]any)["echo_verb"] != "decide" || w["same"].(map[string]any)["echo_verb"] != "decide" {
				t.Errorf("submission/submitted: %v / %v", w["verdict"], w["same"])
			}
			if w["meta"].(map[string]any)["cost_usd"] != 0.5 || w["meta"].(map[string]any)["transport"] != "subprocess" || w["ok"] != true {
				t.Errorf("meta/ok: %v / %v", w["meta"], w["ok"])
			}
			if c, _ := w["code"].(int64); c != 0 {
				t.Errorf("exit_code bound %v (%T), want 0", w["code"], w["code"])
			}
		})
	}
}
