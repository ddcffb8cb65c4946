package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestCassetteRoundTripEveryJSONKind records a run whose real subprocess
// plugin answers one JSON value, turns the trace into a cassette with
// trace to-cassette, and replays the story from it: the replayed
// submission binds the same value, for every JSON kind (numbers, true,
// false, null, text that looks like JSON, objects, arrays).
func TestCassetteRoundTripEveryJSONKind(t *testing.T) {
	t.Parallel() // in process, its own plugin subprocesses and temp dirs
	storytest.NeedGo(t)
	echo := echoAgent(t)
	for _, c := range []struct{ name, answer, schema string }{
		{"int", `5`, `{"type":"number"}`},
		{"float", `1.0`, `{"type":"number"}`},
		{"exponent", `-2.5e-3`, `{"type":"number"}`},
		{"true", `true`, `{"type":"boolean"}`},
		{"false", `false`, `{"type":"boolean"}`},
		{"null", `null`, `{"type":"null"}`},
		{"text", `"five"`, `{"type":"string"}`},
		{"text-like-object", `"{not json"`, `{"type":"string"}`},
		{"text-like-array", `" [1]"`, `{"type":"string"}`},
		{"empty-text", `""`, `{"type":"string"}`},
		{"object", `{"a":[1,2.5,null],"b":{"c":true}}`, `{"type":"object"}`},
		{"array", `[1,"x",false]`, `{"type":"array"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			dir := storytest.TempTree(t, map[string]string{
				"app.yaml": fmt.Sprintf(`app: { id: roundtrip, version: 0.1.0 }
agent_plugins:
  agent.answer: { plugin: subprocess, command: %q, args: [-alias, agent.answer, -fault, %q] }
world:
  got: { type: string, default: "unset" }
root: start
states:
  start:
    on_enter:
      - invoke: host.agent.decide
        agent: agent.answer
        with: { prompt: "answer", schema: schemas/v.json }
        bind: { got: submission }
    terminal: true
`, echo, "answer:"+c.answer),
				"schemas/v.json": c.schema,
			})
			live := trRunJSON(t, dir, "--trace", filepath.Join(tmp, "live.jsonl"))
			cas := filepath.Join(tmp, "replay.cassette.yaml")
			if out, errOut, code := trRun(t, "", "trace", "to-cassette", live.Trace, "-o", cas); code != 0 {
				t.Fatalf("to-cassette: %d %s %s", code, out, errOut)
			}
			replay := trRunJSON(t, dir, "--trace", filepath.Join(tmp, "replay.jsonl"), "--cassette", cas)
			lw, _ := json.Marshal(live.World["got"])
			rw, _ := json.Marshal(replay.World["got"])
			var want any
			_ = json.Unmarshal([]byte(c.answer), &want)
			ww, _ := json.Marshal(want)
			if string(lw) != string(ww) {
				t.Fatalf("the live run bound %s, the plugin answered %s", lw, c.answer)
			}
			if string(rw) != string(lw) {
				b, _ := os.ReadFile(cas)
				t.Fatalf("replay bound %s, live %s\ncassette:\n%s", rw, lw, b)
			}
			if live.Outcome != replay.Outcome || live.State != replay.State {
				t.Fatalf("replay ended %s/%s, live %s/%s", replay.State, replay.Outcome, live.State, live.Outcome)
			}
			b, _ := os.ReadFile(cas)
			if needsExact := !strings.HasPrefix(c.answer, `{`) && !strings.HasPrefix(c.answer, `[`) && c.answer != `"five"`; needsExact != strings.Contains(string(b), "response_json:") {
				t.Fatalf("response_json: written=%v, want %v:\n%s", !needsExact, needsExact, b)
			}
		})
	}
}
