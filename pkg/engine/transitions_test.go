package engine

import (
	"reflect"
	"strings"
	"testing"
)

func in(intent string, kv ...string) Input {
	s := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		s[kv[i]] = kv[i+1]
	}
	return Input{Intent: intent, Slots: s}
}

func TestTransitionTargets(t *testing.T) {
	cases := []struct {
		name    string
		inputs  []Input
		outcome string
		state   string
		n       int
		entered []string
	}{
		{"initial descends compound", nil, OutcomeRested, "area.a", 1, []string{"area", "area.a"}},
		{"dot stays without on_enter", []Input{in("stay")}, OutcomeRested, "area.a", 1, []string{"area", "area.a"}},
		{"explicit self target re-runs the leaf on_enter only", []Input{in("again")}, OutcomeRested, "area.a", 2, []string{"area", "area.a"}},
		{"relative ../", []Input{in("rel")}, OutcomeRested, "area.b", 1, nil},
		{"slash path is absolute", []Input{in("rel"), in("abs")}, OutcomeRested, "area.a", 2, nil},
		{"templated target", []Input{in("tmpl")}, OutcomeRested, "area.b", 1, nil},
		{"guards in order, second wins", []Input{in("guarded", "n", "7")}, OutcomeRested, "area.b", 1, nil},
		{"guards in order, first wins", []Input{in("guarded", "n", "20")}, OutcomeRested, "top", 1, nil},
		{"default arm", []Input{in("guarded", "n", "1")}, OutcomeRested, "area.a", 1, nil},
		{"ancestor handler", []Input{in("up")}, OutcomeRested, "top", 1, nil},
		{"terminal ends the run", []Input{in("rel"), in("fin")}, OutcomeTerminal, "end", 1, nil},
		{"@exit ends the run", []Input{in("out"), in("stay")}, OutcomeExit, "__exit__done", 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, sink := runWant(t, "transitions", "", Options{Inputs: c.inputs}, c.outcome, c.state)
			if !sameNum(res.World["n"], float64(c.n)) {
				t.Errorf("n = %v, want %d (on_enter runs of area.a)", res.World["n"], c.n)
			}
			if c.entered != nil && !reflect.DeepEqual(sink.entered(), c.entered) {
				t.Errorf("entered %v, want %v", sink.entered(), c.entered)
			}
		})
	}
}

func TestWildcardAndExitPayload(t *testing.T) {
	res, sink := runWant(t, "transitions", "", Options{Inputs: []Input{in("up"), in("anything-at-all")}}, OutcomeTerminal, "end")
	wantWorld(t, res.World, "seen", "wildcard", "")
	tr := sink.kinds(KindTransition)
	last := payloadMap(t, tr[len(tr)-1].Payload)
	if last["intent"] != "anything-at-all" || last["from"] != "top" || last["to"] != "end" {
		t.Errorf("transition payload = %v", last)
	}
	res, _ = runStory(t, "transitions", "", Options{Inputs: []Input{in("out")}})
	if res.Exit != "done" {
		t.Errorf("exit = %q", res.Exit)
	}
}

func TestHandlerMissAtALevelIsFinal(t *testing.T) {
	// area.a handles strict with a failing guard: the ancestor's strict
	// handler must not be tried.
	res, sink := runStory(t, "transitions", "", Options{Inputs: []Input{in("strict")}})
	if res.Outcome != OutcomeFailed || !strings.Contains(res.Err.Error(), "every guard failed") {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if len(sink.kinds(KindValidationFailed)) != 1 {
		t.Error("no machine.validation_failed event")
	}
}

func TestUnknownIntentFailsNamingState(t *testing.T) {
	res, _ := runStory(t, "transitions", "", Options{Inputs: []Input{in("rel"), in("stay")}})
	if res.Outcome != OutcomeFailed || !strings.Contains(res.Err.Error(), `intent "stay" is not allowed in state "area.b"`) {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
}

func TestInputsConsumedInOrderAndTurns(t *testing.T) {
	res, sink := runWant(t, "inputs", "", Options{Inputs: []Input{in("hello", "name", "ada"), in("next"), in("next"), in("finish")}}, OutcomeExit, "__exit__finished")
	if res.World["name"] != "ada" || !sameNum(res.World["count"], 3) {
		t.Errorf("world = %v", res.World)
	}
	if res.Turns != 4 {
		t.Errorf("turns = %d", res.Turns)
	}
	starts := sink.kinds(KindTurnStart)
	ends := sink.kinds(KindTurnEnd)
	if len(starts) != 4 || len(ends) != 4 {
		t.Fatalf("turn.start %d, turn.end %d", len(starts), len(ends))
	}
	for i, e := range starts {
		if e.Turn != int64(i+1) {
			t.Errorf("turn.start %d has turn %d", i, e.Turn)
		}
	}
	// turn.end carries the turn's starting state
	if ends[0].StatePath != "lobby" || payloadMap(t, ends[0].Payload)["to"] != "hall" {
		t.Errorf("turn.end[0] = %+v", ends[0])
	}
}

func TestRestsWhenInputRunsOut(t *testing.T) {
	res, _ := runWant(t, "inputs", "", Options{Inputs: []Input{in("hello", "name", "bo")}}, OutcomeRested, "hall")
	if !reflect.DeepEqual(res.Available, []string{"finish", "next"}) {
		t.Errorf("available = %v", res.Available)
	}
	if res.Finished() {
		t.Error("a rested run is not finished")
	}
}

func TestUnconsumedInputsCounted(t *testing.T) {
	res, _ := runWant(t, "transitions", "", Options{Inputs: []Input{in("out"), in("stay"), in("stay")}}, OutcomeExit, "__exit__done")
	if res.Unconsumed != 2 {
		t.Errorf("unconsumed = %d, want 2", res.Unconsumed)
	}
}

// exits.<name>.requires is not enforced at run time (conformance probe
// 06): the exit is taken with the required key empty.
func TestExitRequiresNotEnforcedAtRunTime(t *testing.T) {
	res, _ := runStory(t, "inputs", "", Options{Inputs: []Input{in("bail")}})
	wantOutcome(t, res, OutcomeExit, "__exit__bailed")
	if res.World["name"] != "" {
		t.Errorf("name = %#v, want the empty default", res.World["name"])
	}
}
