package cmd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/trace"
)

func payloadOf(t *testing.T, ev trace.Event) map[string]any {
	t.Helper()
	raw, _ := ev.Payload.(json.RawMessage)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s payload %s: %v", ev.Kind, raw, err)
	}
	return m
}

func firstEvent(t *testing.T, evs []trace.Event, kind string) map[string]any {
	t.Helper()
	for _, ev := range evs {
		if ev.Kind == kind {
			return payloadOf(t, ev)
		}
	}
	t.Fatalf("no %s event in the trace (kinds %v)", kind, countKinds(evs))
	return nil
}

// runTraced runs `kitsoki run story --trace <a fresh file> args...` in
// process, fails the test unless it exits 0, and returns the trace's path
// and the run's stdout.
func runTraced(t *testing.T, story string, args ...string) (tracePath, stdout string) {
	t.Helper()
	tracePath = filepath.Join(t.TempDir(), "run.jsonl")
	code, out, errOut := runCmd(t, append([]string{"run", story, "--trace", tracePath}, args...)...)
	if code != 0 {
		t.Fatalf("run %s: exit %d\n%s\n%s", story, code, out, errOut)
	}
	return tracePath, out
}

// TestRunLogsTheRequestThePluginReceived: a real pre-dispatch hook process
// reroutes the call to another alias and rewrites with:; the real
// subprocess plugin echoes the request line it read. agent.call.start must
// record exactly that request (alias, with, prompt, schema, system prompt,
// deadline), and the CLI must name the alias that served the call.
func TestRunLogsTheRequestThePluginReceived(t *testing.T) {
	echo := echoAgent(t)
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": fmt.Sprintf(`app: { id: logged, version: 0.1.0 }
agent_plugins:
  agent.first: { plugin: subprocess, command: %q, args: [-alias, agent.first] }
  agent.second: { plugin: subprocess, command: %q, args: [-alias, agent.second] }
agents:
  judge: { system_prompt: "You judge pull requests strictly." }
world:
  got: { type: object, default: {} }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.first
        with: { agent: judge, prompt: "hello there", fault: echo_request, schema: schemas/line.json }
        bind: { got: submission }
    terminal: true
`, echo, echo),
		"story/schemas/line.json":               `{"type":"object","required":["line"],"properties":{"line":{"$ref":"common.json#/$defs/text"}}}`,
		"story/schemas/common.json":             `{"$defs":{"text":{"type":"string","minLength":1}}}`,
		".kitsoki/plugins/router/manifest.yaml": fmt.Sprintf("id: router\nhooks: [{point: agent/pre-dispatch}]\nentry: {command: %q, args: [reroute, agent.second]}\n", hook),
	})
	tracePath, out := runTraced(t, filepath.Join(root, "story"), "--timeout", "2m")
	if !strings.Contains(out, "via agent.second") || strings.Contains(out, "via agent.first") {
		t.Fatalf("the log must name the alias that served the call:\n%s", out)
	}
	evs := readTrace(t, tracePath)
	start := firstEvent(t, evs, "agent.call.start")
	if start["alias"] != "agent.second" || start["system_prompt"] != "You judge pull requests strictly." {
		t.Fatalf("start payload: %v", start)
	}
	w, _ := start["with"].(map[string]any)
	if w["hooked"] != "by testhook" {
		t.Fatalf("start with: %v", w)
	}
	rw := firstEvent(t, evs, "hook.rewrote")
	if vals, _ := rw["values"].(map[string]any); vals["alias"] != "agent.second" || vals["with"].(map[string]any)["hooked"] != "by testhook" {
		t.Fatalf("hook.rewrote must carry the new values: %v", rw)
	}
	// What the plugin read, line for line.
	var world map[string]any
	for _, ev := range evs {
		if ev.Kind == "world.update" {
			if set, ok := payloadOf(t, ev)["set"].(map[string]any); ok && set["got"] != nil {
				world = set["got"].(map[string]any)
			}
		}
	}
	var rpc struct {
		Params struct {
			Prompt   string          `json:"prompt"`
			With     map[string]any  `json:"with"`
			Schema   json.RawMessage `json:"schema"`
			Deadline time.Time       `json:"deadline"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(world["line"].(string)), &rpc); err != nil {
		t.Fatalf("echoed line %v: %v", world["line"], err)
	}
	wantWith, _ := json.Marshal(rpc.Params.With)
	gotWith, _ := json.Marshal(w)
	if string(wantWith) != string(gotWith) || rpc.Params.Prompt != start["prompt"] {
		t.Fatalf("the trace records with %s prompt %q; the plugin received with %s prompt %q", gotWith, start["prompt"], wantWith, rpc.Params.Prompt)
	}
	gotSchema, _ := json.Marshal(start["schema"])
	var sent any
	_ = json.Unmarshal(rpc.Params.Schema, &sent)
	wantSchema, _ := json.Marshal(sent)
	if string(gotSchema) != string(wantSchema) || strings.Contains(string(wantSchema), "common.json#") {
		t.Fatalf("schema: trace %s, plugin %s (must be bundled)", gotSchema, wantSchema)
	}
	if rpc.Params.Deadline.Format(time.RFC3339Nano) != start["deadline"] {
		t.Fatalf("deadline: trace %v, plugin %v", start["deadline"], rpc.Params.Deadline)
	}
	// --timeout 2m: the soft deadline is the run's end, not start + 10m.
	if left := time.Until(rpc.Params.Deadline); left > 2*time.Minute {
		t.Fatalf("AskRequest.deadline is %v away; the run ends within 2m", left)
	}
}

// TestRunPostReturnVetoKeepsMeta: a real post-return hook vetoes a real
// subprocess plugin's answer; the error event keeps the plugin's meta, so
// `trace calls` still counts its cost.
func TestRunPostReturnVetoKeepsMeta(t *testing.T) {
	echo := echoAgent(t)
	hook := buildTestBinary(t, "kitsoki/internal/testing/hookplugins/testhook")
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": fmt.Sprintf(`app: { id: vetoed, version: 0.1.0 }
agent_plugins:
  agent.paid: { plugin: subprocess, command: %q, args: [-alias, agent.paid], env: { ECHO_COST_USD: "0.001" } }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.paid
        with: { prompt: "hello" }
        on_error: refused
    terminal: true
  refused: { terminal: true }
`, echo),
		".kitsoki/plugins/policy/manifest.yaml": fmt.Sprintf("id: policy\nhooks: [{point: agent/post-return}]\nentry: {command: %q, args: [veto]}\n", hook),
	})
	tracePath, out := runTraced(t, filepath.Join(root, "story"))
	if !strings.Contains(out, "terminal refused") {
		t.Fatalf("the vetoed call must go to on_error:\n%s", out)
	}
	ep := firstEvent(t, readTrace(t, tracePath), "agent.call.error")
	if m, _ := ep["meta"].(map[string]any); m["cost_usd"] != 0.001 || !strings.Contains(ep["error"].(string), "hook_vetoed") {
		t.Fatalf("error payload: %v", ep)
	}
	code, out, errOut := runCmd(t, "trace", "calls", tracePath, "--json")
	if code != 0 {
		t.Fatalf("trace calls: exit %d %s", code, errOut)
	}
	if !strings.Contains(out, `"cost_usd":0.001`) {
		t.Fatalf("trace calls must count the vetoed answer's cost:\n%s", out)
	}
}

// TestRunCallTimeout: a real subprocess plugin that never answers fails its
// call with deadline_exceeded after the invoke's timeout: (and, for the
// invoke without one, after --call-timeout); on_error fires and the run
// goes on. The timeouts are in the trace.
func TestRunCallTimeout(t *testing.T) {
	echo := echoAgent(t)
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": fmt.Sprintf(`app: { id: slow, version: 0.1.0 }
agent_plugins:
  agent.slow: { plugin: subprocess, command: %q, args: [-alias, agent.slow] }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.slow
        timeout: 300ms
        with: { prompt: "hello", fault: hang }
        on_error: second
    terminal: true
  second:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.slow
        with: { prompt: "again", fault: hang }
        on_error: done
    terminal: true
  done: { terminal: true }
`, echo),
	})
	tracePath, out := runTraced(t, filepath.Join(root, "story"), "--call-timeout", "400ms")
	if !strings.Contains(out, "terminal done") {
		t.Fatalf("the timed-out calls must go to on_error:\n%s", out)
	}
	var timeouts []any
	for _, ev := range readTrace(t, tracePath) {
		if ev.Kind == "agent.call.error" {
			p := payloadOf(t, ev)
			if !strings.Contains(p["error"].(string), "deadline_exceeded") || !strings.Contains(p["error"].(string), "discarded") {
				t.Fatalf("error: %v", p)
			}
			timeouts = append(timeouts, p["timeout_ms"])
		}
	}
	if fmt.Sprint(timeouts) != "[300 400]" {
		t.Fatalf("timeouts recorded %v, want [300 400]", timeouts)
	}
	if code, _, _ := runCmd(t, "run", filepath.Join(root, "story"), "--call-timeout", "-1s"); code != 2 {
		t.Fatalf("negative --call-timeout: exit %d", code)
	}
}

// TestRunTemplatedAgentAlias: agent: "{{ world.pick }}" is rendered at
// dispatch; an unknown rendered alias fails naming template and value.
func TestRunTemplatedAgentAlias(t *testing.T) {
	echo := echoAgent(t)
	root := storytest.TempTree(t, map[string]string{
		"story/app.yaml": fmt.Sprintf(`app: { id: tmpl, version: 0.1.0 }
agent_plugins:
  agent.b: { plugin: subprocess, command: %q, args: [-alias, agent.b] }
world:
  pick: { type: string, default: agent.b }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: "{{ world.pick }}"
        with: { prompt: "hello" }
    terminal: true
`, echo),
	})
	story := filepath.Join(root, "story")
	if code, out, errOut := runCmd(t, "validate", story); code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
	}
	if _, out := runTraced(t, story); !strings.Contains(out, "via agent.b") {
		t.Fatalf("the rendered alias must serve the call:\n%s", out)
	}
	// the call fails, naming the alias; without on_error the run goes on
	// to its terminal state, as a test session's turn does
	code, out, errOut := runCmd(t, "run", story, "--world", "pick=agent.nope", "--json", "--trace", filepath.Join(t.TempDir(), "b.jsonl"))
	all := out + errOut
	var res struct {
		Outcome string         `json:"outcome"`
		World   map[string]any `json:"world"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("unknown rendered alias: exit %d, %v\n%s", code, err, all)
	}
	if le, _ := res.World["last_error"].(string); res.Outcome != "terminal" || !strings.Contains(le, `"{{ world.pick }}" rendered to "agent.nope"`) {
		t.Fatalf("unknown rendered alias: exit %d\n%s", code, all)
	}
}

// TestOTLPAgentSpansNestUnderTheHostCall: a real run through a real
// subprocess plugin, exported as OTLP: the invoke_agent span carries
// gen_ai.provider.name and is a child of the execute_tool host.agent.ask
// span of the host call that made it.
func TestOTLPAgentSpansNestUnderTheHostCall(t *testing.T) {
	echo := echoAgent(t)
	root := storytest.TempTree(t, map[string]string{"story/app.yaml": fmt.Sprintf(`app: { id: otlp, version: 0.1.0 }
agent_plugins:
  agent.sub: { plugin: subprocess, command: %q, args: [-alias, agent.sub] }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.ask
        agent: agent.sub
        with: { prompt: "hello" }
    terminal: true
`, echo)})
	tracePath, _ := runTraced(t, filepath.Join(root, "story"))
	code, out, errOut := runCmd(t, "trace", "export", "--format", "otlp-json", tracePath)
	if code != 0 {
		t.Fatalf("export: exit %d %s", code, errOut)
	}
	var doc struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []struct {
					SpanID       string `json:"spanId"`
					ParentSpanID string `json:"parentSpanId"`
					Name         string `json:"name"`
					Attributes   []struct {
						Key   string `json:"key"`
						Value struct {
							StringValue string `json:"stringValue"`
						} `json:"value"`
					} `json:"attributes"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ids := map[string]string{}
	var agentParent, provider string
	for _, sp := range doc.ResourceSpans[0].ScopeSpans[0].Spans {
		ids[sp.SpanID] = sp.Name
		if strings.HasPrefix(sp.Name, "invoke_agent") {
			agentParent = sp.ParentSpanID
			for _, a := range sp.Attributes {
				if a.Key == "gen_ai.provider.name" {
					provider = a.Value.StringValue
				}
			}
		}
	}
	if ids[agentParent] != "execute_tool host.agent.ask" || provider != "kitsoki.subprocess" {
		t.Fatalf("invoke_agent parent %q (%s), provider %q\n%s", agentParent, ids[agentParent], provider, out)
	}
}
