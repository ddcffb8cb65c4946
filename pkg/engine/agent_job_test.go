package engine

import (
	"context"
	"testing"
	"time"
)

// agentJobStory submits host.agent.ask in the background (go) and in the
// foreground (fg); the chain reads the job's status, answer and meta.
var agentJobStory = `app: {id: agentjob}
agents:
  rev: {model: m1, system_prompt: You review.}
hosts: [host.agent.ask]
intents:
  go: {}
  fg: {}
root: a
world:
  js: {type: string, default: ""}
  ja: {type: string, default: ""}
  jc: {default: ""}
states:
  a:
    on:
      go:
        - target: .
          effects:
            - invoke: host.agent.ask
              id: j1
              background: true
              with: {agent: rev, prompt: "bg {{ world.js }}"}
              on_complete:
                - set: {js: "{{ world.last_job_status }}"}
                - set: {ja: "{{ world.last_job_result.submitted.answer }}"}
                - set: {jc: "{{ world.last_job_result.meta.cost_usd }}"}
      fg:
        - target: .
          effects:
            - invoke: host.agent.ask
              id: f1
              with: {agent: rev, prompt: "fg"}
`

// A background job the agent layer answers lands done with the answer
// and its meta in last_job_result, and charges no cost: upstream folds
// an agent's cost_usd only into the turn that dispatched the call in the
// foreground (probed with a stand-in claude on PATH under host_bindings,
// /work/notes/probes/gencov8/agent-job-standin-claude: the foreground
// call charged 0.5, the landing nothing).
func TestAgentJobAnswerChargesNoCost(t *testing.T) {
	var calls []AgentCall
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		calls = append(calls, c)
		a := answerOf(`{"answer":"A"}`)
		a.Meta = map[string]any{"cost_usd": 0.5}
		return a, nil
	})
	m := compileSource(t, "app.yaml", agentJobStory, CompileOptions{})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Options: Options{Agents: agents}, Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire(t, s, "go")
	if _, err := s.Advance(t.Context(), time.Minute); err != nil {
		t.Fatal(err)
	}
	w := s.World()
	if w["js"] != "done" || w["ja"] != "A" || w["jc"] != 0.5 {
		t.Errorf("landing: js=%v ja=%v jc=%v", w["js"], w["ja"], w["jc"])
	}
	if w["session_cost_usd"] != nil || w["turn_cost_usd"] != nil { // never charged, never set
		t.Errorf("the landing charged: turn %v session %v", w["turn_cost_usd"], w["session_cost_usd"])
	}
	fire(t, s, "fg")
	if w := s.World(); w["session_cost_usd"] != 0.5 || w["turn_cost_usd"] != 0.5 {
		t.Errorf("the foreground call: turn %v session %v", w["turn_cost_usd"], w["session_cost_usd"])
	}
	if len(calls) != 2 || calls[0].EffectID != "j1" || calls[0].Prompt != "bg " || calls[1].EffectID != "f1" {
		t.Errorf("calls %+v", calls)
	}
}
