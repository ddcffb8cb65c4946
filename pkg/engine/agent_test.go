package engine

import (
	"context"
	"testing"
)

func TestAgentCallPromptSchemaAlias(t *testing.T) {
	var got []AgentCall
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		got = append(got, c)
		if c.Verb == "decide" {
			return answerOf(`{"decision":"accept"}`), nil
		}
		return answerOf(`"hello there"`), nil
	})
	res, sink := runWant(t, "agent", "", Options{Agents: agents}, OutcomeTerminal, "judging")
	if len(got) != 2 {
		t.Fatalf("%d calls", len(got))
	}
	d := got[0]
	if d.Verb != "decide" || d.Alias != "agent.local" || d.Persona != "judge" || d.SchemaPath != "schemas/verdict.json" {
		t.Errorf("decide call = %+v", d)
	}
	if d.Prompt != "Judge the topic \"tabs vs spaces\".\nWorld topic: tabs vs spaces.\n" {
		t.Errorf("prompt file rendered = %q", d.Prompt)
	}
	if len(d.CallID) != 16 || d.Turn != 0 || d.StatePath != "judging" || d.EffectID != "judge_call" {
		t.Errorf("identity = %q %d %q %q", d.CallID, d.Turn, d.StatePath, d.EffectID)
	}
	// an inline prompt is a with: value (upstream, conformance probe 17:
	// {{ args.what }} sees the machine's empty args), rendered after the
	// first bind; an ask's inline text is then sent as written, {% %}
	// tags and all, on the plugin path too (upstream's session, probed:
	// docs/compat/agent-contract.md "Prompt sources on the plugin path")
	if got[1].Prompt != "Say something about  (accept){% if args.what %}!{% endif %}" {
		t.Errorf("inline prompt = %q", got[1].Prompt)
	}
	if res.World["reply"] != "hello there" {
		t.Errorf("reply (bound from stdout of a string submission) = %v", res.World["reply"])
	}
	ret := payloadMap(t, sink.kinds(KindHarnessReturned)[0].Payload)["data"].(map[string]any)
	if ret["ok"] != true || ret["exit_code"] != float64(0) || ret["submitted"].(map[string]any)["decision"] != "accept" {
		t.Errorf("decide result = %v", ret)
	}
}

// A converse answered with text binds it as answer too, as upstream's
// converse (the claude path: {answer, session_id}). Probed
// (/tmp/agentwalk2-probes/claude, a stand-in claude on PATH):
// `bind: { reply: answer }` set reply on kitsoki-existing and left it
// unset here.
func TestConverseTextAnswerBindsAnswer(t *testing.T) {
	res := agentResult("converse", answerOf(`"plain words"`))
	if res["answer"] != "plain words" || res["stdout"] != "plain words" {
		t.Fatalf("converse result = %v", res)
	}
	if res := agentResult("ask", answerOf(`"plain words"`)); res["answer"] != nil {
		t.Fatalf("ask result has answer: %v", res)
	}
}
