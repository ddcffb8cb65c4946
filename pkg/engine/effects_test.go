package engine

import (
	"context"
	"strings"
	"testing"
)

func TestEffectsSetIncrementSayBindRerender(t *testing.T) {
	res, sink := runWant(t, "effects", "", Options{}, OutcomeTerminal, "start")
	w := res.World
	checks := map[string]any{
		"a": 10, "b": 6, // every key of one set renders against the pre-block world
		"s":     "a=10 b=6",
		"n":     2, // 1 + 2 - 1
		"never": false,
		"x":     "set-won", // {set, invoke} in one entry: only set runs
		"sha":   "abc", "first": "n0",
		"calc":  42,          // bind template with the result root
		"echo2": "got-abc\n", // with: rendered at dispatch sees the earlier bind (stdout untrimmed, as upstream)
		"kept":  "untouched", // a missing result path leaves the world alone
	}
	for k, want := range checks {
		if got := w[k]; toString(got) != toString(want) {
			t.Errorf("world.%s = %#v, want %#v", k, got, want)
		}
	}
	if flat, nested := w["nested.inner"], w["nested"].(map[string]any); flat != "abc" || len(nested) != 0 {
		t.Errorf("a dotted bind key is one flat key, as upstream: nested.inner = %v, nested = %v", flat, nested)
	}
	called := sink.kinds(KindHarnessCalled)
	if len(called) != 2 {
		t.Fatalf("harness.called %d times, want 2 (the set+invoke entry must not invoke)", len(called))
	}
	// harness.called shows the args as the walk rendered them, before the
	// first call's bind; harness.dispatched what the call received
	args := payloadMap(t, called[1].Payload)["args"].(map[string]any)
	if args["cmd"] != "echo got-" || args["call"] != "echo" {
		t.Errorf("second call's walk-time args = %v", args)
	}
	dispatched := sink.kinds(KindHarnessDispatched)
	if len(dispatched) != 2 {
		t.Fatalf("harness.dispatched %d times, want 2", len(dispatched))
	}
	if args := payloadMap(t, dispatched[1].Payload)["args"].(map[string]any); args["cmd"] != "echo got-abc" {
		t.Errorf("second call's dispatched args = %v", args)
	}
	says := sink.kinds(KindSay)
	if len(says) != 1 || payloadMap(t, says[0].Payload)["text"] != "a is 10" {
		t.Errorf("say events = %v", says)
	}
	if len(res.Calls) != 2 || !res.Calls[0].OK || res.Calls[0].ID != "json_out" {
		t.Errorf("calls = %+v", res.Calls)
	}
}

func TestOnErrorSetsLastErrorAndRedirects(t *testing.T) {
	res, sink := runWant(t, "onerror", "", Options{}, OutcomeTerminal, "failed")
	if le, _ := res.World["last_error"].(string); le != "host.run: command exited 7" {
		t.Errorf("last_error = %q", le)
	}
	he, _ := res.World["host_error"].(map[string]any)
	if he["namespace"] != "host.run" || he["message"] != res.World["last_error"] {
		t.Errorf("host_error = %v", he)
	}
	if res.World["out"] != "bad\n" {
		t.Errorf("a domain error binds its data (story-runtime §2.3): out = %q", res.World["out"])
	}
	wantWorld(t, res.World, "walked", "yes", "the chain is walked before its calls are dispatched (§5.2)")
	if len(onErrorTransitions(t, sink)) != 1 {
		t.Errorf("want one on_error transition")
	}
	if says := sink.kinds(KindSay); len(says) != 1 || payloadMap(t, says[0].Payload)["text"] != "error: host.run" {
		t.Errorf("say = %v", says)
	}
}

// The sixth redirect of a chain is refused (story-runtime §2.4): a
// harness.error says so and the run stays where the last redirect took it.
func TestOnErrorDepthCap(t *testing.T) {
	res, sink := runStory(t, "onerror", "loop", Options{})
	if res.Err != nil {
		t.Fatalf("outcome %s err %v, want the cap handled", res.Outcome, res.Err)
	}
	he := sink.kinds(KindHarnessError)
	if len(he) != 1 || payloadMap(t, he[0].Payload)["reason"] != "on_error.depth_cap_exceeded" {
		t.Errorf("harness.error = %v, want one depth cap", he)
	}
	if !sameNum(res.World["tries"], 6) { // the first entry plus 5 redirects (depths 0-4; story-runtime §2.4)
		t.Errorf("tries = %v, want 6", res.World["tries"])
	}
}

// A failed call without on_error does not fail the turn (story-runtime
// §2.3, as upstream's headless turn): last_error is set and the run goes on.
func TestInvokeFailureWithoutOnErrorGoesOn(t *testing.T) {
	res, _ := runStory(t, "onerror", "unhandled", Options{})
	if res.Err != nil {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if le, _ := res.World["last_error"].(string); le == "" {
		t.Errorf("last_error not set: %v", res.World)
	}
	if len(res.Calls) != 1 || res.Calls[0].OK {
		t.Errorf("calls = %+v, want one failed", res.Calls)
	}
}

func TestEmitIntentAfterBinds(t *testing.T) {
	res, sink := runWant(t, "emit", "", Options{}, OutcomeTerminal, "done")
	wantWorld(t, res.World, "reason", "verdict=yes", "slots must render after the bind")
	if n := len(sink.kinds(KindEmitIntent)); n != 1 {
		t.Errorf("%d emits, want 1", n)
	}
}

func TestEmptyEmitDoesNothing(t *testing.T) {
	res, sink := runWant(t, "emit", "quiet", Options{}, OutcomeRested, "quiet")
	if n := len(sink.kinds(KindEmitIntent)); n != 0 {
		t.Errorf("%d emits, want none", n)
	}
	if len(res.Available) != 1 || res.Available[0] != "ping" {
		t.Errorf("available = %v", res.Available)
	}
}

func TestEmitDepthCap(t *testing.T) {
	res, _ := runStory(t, "emit", "p1", Options{})
	if res.Outcome != OutcomeFailed || !strings.Contains(res.Err.Error(), "exceeded max depth (24)") {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if !sameNum(res.World["hops"], 25) { // the first entry plus 24 emitted re-entries (story-runtime §1.9: 24, not 8)
		t.Errorf("hops = %v, want 25", res.World["hops"])
	}
}

func TestOnceSkipsWhenBindTargetsSet(t *testing.T) {
	calls := 0
	agents := AgentCallerFunc(func(ctx context.Context, c AgentCall) (*AgentAnswer, error) {
		calls++
		return answerOf(`{"decision":"accept"}`), nil
	})
	w, err := InitWorld(compileStory(t, "agent").World, &WorldFile{Path: "w.yaml", Values: map[string]any{"verdict": map[string]any{"decision": "reject"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, sink := runWant(t, "agent", "", Options{Agents: agents, World: w}, OutcomeTerminal, "judging")
	if calls != 1 { // only the ask; the decide was cached
		t.Errorf("%d agent calls, want 1", calls)
	}
	skipped := false
	for _, e := range sink.kinds(KindWorldUpdate) {
		if payloadMap(t, e.Payload)["skipped"] == "cached" {
			skipped = true
		}
	}
	if !skipped {
		t.Error("no world.update {skipped: cached} event")
	}
	if v := res.World["verdict"].(map[string]any)["decision"]; v != "reject" {
		t.Errorf("verdict overwritten: %v", v)
	}
}

func TestOnErrorStayAndTemplated(t *testing.T) {
	res, _ := runWant(t, "onerror", "stay", Options{}, OutcomeRested, "stay")
	if res.World["out"] != "" {
		t.Errorf("a call queued after the one that failed with on_error: \".\" ran")
	}
	// an on_error target is never rendered: "{{ 'fai' }}led" names no
	// state, so the call's failure redirects nowhere, as upstream
	// (conformance on-error-template-literal)
	res, _ = runStory(t, "onerror", "templated", Options{})
	wantOutcome(t, res, OutcomeRested, "templated")
}
