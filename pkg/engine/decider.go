package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/jsonvalue"
)

// maxDeciderDepth caps how many gates the app-level decider passes in a
// row (story-runtime §7).
const maxDeciderDepth = 8

// decide is the app-level engine decider (the top-level decider: block) of
// a one-shot run resting at a decision gate: host.agent.decide picks one
// of the gate's forward intents; a choice at or above the threshold fires,
// anything else bails to the human (story-runtime §7). It reports whether
// an intent fired.
func (s *Session) decide(ctx context.Context) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.r
	d := r.m.Decider
	if d == nil || r.ended || r.par != nil || r.cur == nil || r.cur.Decider == "human" || r.so.Agents == nil {
		return false, nil
	}
	cands, gate := r.gateCandidates(r.cur)
	if !gate {
		return false, nil
	}
	state := r.cur.Path
	call, err := r.deciderCall(d, cands)
	if err != nil {
		return false, err
	}
	ans, err := r.so.Agents.CallAgent(ctx, call)
	chosen, conf := "", 0.0
	if err == nil {
		chosen, conf = deciderChoice(ans.Value)
	}
	ok := err == nil && conf >= d.Threshold && slices.Contains(cands, chosen)
	p := map[string]any{"available_intents": cands, "bailed_to_human": !ok, "chosen_intent": "", "confidence": conf, "decider": "llm", "state": state}
	if ok {
		p["chosen_intent"] = chosen
	}
	if e := r.emit(KindGateDecided, p); e != nil {
		return false, e
	}
	if !ok {
		r.note(Note{Kind: "decider", State: state, Text: "decider bailed to the human: " + bailReason(err, chosen, conf, d.Threshold, cands)})
		return false, nil
	}
	r.note(Note{Kind: "decider", State: state, Text: fmt.Sprintf("decider chose %s (confidence %.2f)", chosen, conf)})
	if err := r.drainJobs(ctx); err != nil {
		return false, err
	}
	t, err := r.userTurn(ctx, Input{Intent: chosen})
	if err != nil {
		return false, err
	}
	if t.Rejection != nil {
		return false, t.Rejection
	}
	return t.Err == nil, t.Err
}

// deciderCall is the app-level decider's call choosing among cands at the resting gate.
func (r *runner) deciderCall(d *AppDecider, cands []string) (AgentCall, error) {
	state := r.cur.Path
	args := map[string]any{"state": state, "candidates": cands, "description": r.cur.Description}
	with := map[string]any{"agent": d.Agent, "args": args}
	if d.Schema != "" {
		with["schema"] = d.Schema
	}
	prompt := cmp.Or(d.Prompt, "You decide the next step of a state machine resting in state {{ args.state }} ({{ args.description }}). "+
		"Choose one intent of {{ args.candidates }} and answer {\"intent\": \"<name>\", \"confidence\": <0..1>, \"reason\": \"...\"}.")
	rc, err := r.m.renderer().RenderAgentCall("host.agent.decide", "decider", with, nil, r.callEnv())
	if err == nil {
		// the engine's own prompt is not a story with: value: pongo2
		// renders it with the decider's args
		rc.With["prompt"] = prompt
		rc.Prompt, err = r.m.renderer().renderPromptArgs(prompt, args, r.callEnv())
	}
	if err != nil {
		return AgentCall{}, fmt.Errorf("decider: %w", err)
	}
	return AgentCall{Verb: "decide", Alias: "agent.claude", Persona: d.Agent, Model: r.m.PersonaModels[d.Agent],
		Prompt: rc.Prompt, SchemaPath: rc.SchemaPath, With: rc.With, World: r.world, SessionID: r.so.SessionID,
		Turn: r.turn, StatePath: state, CallID: agentcall.LiveID(r.m.AppID, r.turn, state+"#decider", 0), EffectID: "decider"}, nil
}

// bailReason says why the decider's answer (or failure err) fired nothing.
func bailReason(err error, chosen string, conf, threshold float64, cands []string) string {
	switch {
	case err != nil:
		return err.Error()
	case !slices.Contains(cands, chosen):
		return fmt.Sprintf("chose %q, not one of %s", chosen, strings.Join(cands, ", "))
	}
	return fmt.Sprintf("confidence %.2f below %.2f", conf, threshold)
}

// deciderChoice reads {intent|choice|chosen_intent|decision, confidence}
// off the answer's value. The existing engine reads the answer into
// float64 numbers: one with a number past float64's range (Inf here) is
// no choice at all.
func deciderChoice(v any) (string, float64) {
	m, ok := v.(map[string]any)
	if !ok || jsonvalue.AnyFloat(m, func(f float64) bool { return math.IsInf(f, 0) }) {
		return "", 0
	}
	name := ""
	for _, k := range []string{"intent", "chosen_intent", "choice", "decision"} {
		if s, ok := m[k].(string); ok && s != "" {
			name = strings.TrimSpace(s)
			break
		}
	}
	switch c := m["confidence"].(type) {
	case float64:
		return name, c
	case int:
		return name, float64(c)
	}
	return name, 0
}
