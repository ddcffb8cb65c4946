package engine

import (
	"slices"
	"testing"
)

// story-format §5.2: host calls are queued while the machine walks a step
// and dispatched afterwards, so the rest of the chain sees the world before
// the call's bind.
func TestQueuedInvokeChainSeesPreBindWorld(t *testing.T) {
	needSh(t)
	res, sink := runWant(t, "queued", "", Options{}, OutcomeRested, "start")
	if res.World["v"] != "new" {
		t.Fatalf("v = %v: the queued call's bind did not land", res.World["v"])
	}
	wantWorld(t, res.World, "seen", "old", "a set after an invoke must see the pre-bind world")
	wantWorld(t, res.World, "guarded", "", "a when: after an invoke must see the pre-bind world")
	says := sink.kinds(KindSay)
	if len(says) != 1 || payloadMap(t, says[0].Payload)["text"] != "v is old" {
		t.Errorf("say = %v: a say after an invoke must see the pre-bind world", says)
	}
	// harness.called where the walk reaches the invoke, the call itself
	// (harness.dispatched) after the walk
	var order []string
	for _, e := range sink.evs {
		switch e.Kind {
		case KindSay, KindHarnessCalled, KindHarnessDispatched, KindHarnessReturned:
			order = append(order, e.Kind)
		}
	}
	if want := []string{KindHarnessCalled, KindSay, KindHarnessDispatched, KindHarnessReturned}; !slices.Equal(order, want) {
		t.Errorf("event order = %v, want %v", order, want)
	}
}

// An invoke's with: renders against the world as the walk reached it
// (story-runtime §2.1): a set after it in its chain is not visible, the
// binds of the calls dispatched before it in the batch are.
func TestQueuedInvokeWithSeesWalkWorldAndEarlierBinds(t *testing.T) {
	needSh(t)
	res, sink := runWant(t, "queued", "", Options{Inputs: []Input{{Intent: "go"}}}, OutcomeRested, "later")
	wantWorld(t, res.World, "echoed", "late=", "with: must not see the set written after the invoke")
	wantWorld(t, res.World, "chained", "chained-late=", "a later call's with: must see the earlier call's bind")
	if n := len(sink.kinds(KindHarnessCalled)); n != 3 {
		t.Errorf("%d harness.called, want 3", n)
	}
}

// Calls queued by a transition's effects and by the entered state's
// on_enter are dispatched after the whole step, in walk order, each call
// record credited to the state whose chain reached it; their
// harness.called events carry the turn's starting state as state_path,
// as upstream stamps every event of a turn but state_exited/entered
// (docs/compat/trace-eval.md A.3).
func TestQueuedInvokeAcrossTransitionCreditsDeclaringState(t *testing.T) {
	needSh(t)
	res, sink := runWant(t, "queued", "later", Options{Inputs: []Input{{Intent: "move"}}}, OutcomeTerminal, "arrival")
	wantWorld(t, res.World, "arrived", "arrived-moved", "the entered state's call must see the transition call's bind")
	called := sink.kinds(KindHarnessCalled)
	if len(called) != 4 {
		t.Fatalf("%d harness.called, want 4", len(called))
	}
	for i, e := range called {
		if e.StatePath != "later" {
			t.Errorf("harness.called[%d] stamped %q, want the turn's starting state %q", i, e.StatePath, "later")
		}
	}
	for _, c := range res.Calls {
		if c.ID == "on_move" && c.State != "later" || c.ID == "on_arrive" && c.State != "arrival" {
			t.Errorf("call %s credited to %q", c.ID, c.State)
		}
	}
	// the step's machine events (entering arrival) come before its calls
	entered, firstMoveCall := -1, -1
	for i, e := range sink.evs {
		if e.Kind == KindStateEntered && e.StatePath == "arrival" && entered < 0 {
			entered = i
		}
		if e.Kind == KindHarnessDispatched && e.Turn == 1 && firstMoveCall < 0 {
			firstMoveCall = i
		}
	}
	if entered < 0 || firstMoveCall < entered {
		t.Errorf("state.entered arrival at %d, first turn-1 call at %d: calls must be dispatched after the walk", entered, firstMoveCall)
	}
}

// A failed call with on_error abandons the calls still queued behind it:
// both were written when the walk reached them, only the first went out.
func TestOnErrorAbandonsQueuedCalls(t *testing.T) {
	needSh(t)
	res, sink := runWant(t, "onerror", "abandon", Options{}, OutcomeTerminal, "failed")
	wantWorld(t, res.World, "out", "", "the call queued after the failed one ran")
	if n := len(sink.kinds(KindHarnessCalled)); n != 2 {
		t.Errorf("%d harness.called, want 2", n)
	}
	if n := len(sink.kinds(KindHarnessDispatched)); n != 1 {
		t.Errorf("%d harness.dispatched, want 1", n)
	}
	if he, _ := res.World["host_error"].(map[string]any); he["namespace"] != "host.run" {
		t.Errorf("host_error = %v", he)
	}
}

// A call queued by a terminal state's on_enter is dispatched after the walk
// reached that state; its failure with on_error still redirects.
func TestOnErrorFromTerminalStateRedirects(t *testing.T) {
	needSh(t)
	_, sink := runWant(t, "onerror", "ending", Options{}, OutcomeTerminal, "failed")
	if n := len(onErrorTransitions(t, sink)); n != 1 {
		t.Errorf("%d on_error redirects, want 1", n)
	}
	if says := sink.kinds(KindSay); len(says) != 1 || payloadMap(t, says[0].Payload)["text"] != "error: host.run" {
		t.Errorf("say = %v", says)
	}
}

// on_error: "." from a terminal state's queued call leaves the run ended
// there.
func TestOnErrorStayFromTerminalStateKeepsItEnded(t *testing.T) {
	needSh(t)
	res, sink := runWant(t, "onerror", "ending_stay", Options{}, OutcomeTerminal, "ending_stay")
	if n := len(onErrorTransitions(t, sink)); n != 0 {
		t.Errorf("%d on_error redirects, want none", n)
	}
	if le, _ := res.World["last_error"].(string); le == "" {
		t.Error("last_error not set")
	}
}
