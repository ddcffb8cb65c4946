package engine

import (
	"context"
	"strings"
	"testing"

	"kitsoki/pkg/host"
)

// Conformance with upstream's runtime probes (runtime-probes/, traces in
// runtime-probes/traces/): each test replays a probe's turns and checks
// what upstream's trace shows.

// A queued call's with: is rendered at dispatch against the world as it
// was at the invoke's place in the chain, plus the binds of the batch's
// earlier calls: p2 `calls` sends x=v1 to the first call although a later
// set made k=v2, and y=A1 (the first call's bind) to the second
// (traces/p2a.jsonl turn 1).
func TestDispatchRendersAgainstInvokeSnapshot(t *testing.T) {
	var got []map[string]any
	h := host.HandlerFunc(func(ctx context.Context, c *host.Call) (host.Result, error) {
		got = append(got, c.Args)
		if c.Args["call"] == "first" {
			return host.Result{Data: map[string]any{"val": "A1"}}, nil
		}
		return host.Result{Data: map[string]any{"val": "A2", "obj": map[string]any{"list": []any{1, 2, 3}}}}, nil
	})
	s, _ := probe(t, "p2", "", map[string]host.Handler{"host.a": h})
	fire(t, s, "calls")
	want := []map[string]any{
		{"call": "first", "x": "v1", "lit": "plain", "n": int64(3), "nested": map[string]any{"a": "v1"}, "list": []any{"v1", int64(2)}},
		{"call": "second", "x": "v2", "y": "A1"},
	}
	if len(got) != 2 {
		t.Fatalf("calls %v", got)
	}
	for i := range want {
		if !sameJSON(got[i], want[i]) {
			t.Errorf("call %d args %#v, want %#v", i, got[i], want[i])
		}
	}
	if w := s.World(); w["k"] != "v2" || w["r1"] != "A1" || w["r2"] != "A2" {
		t.Errorf("world k=%v r1=%v r2=%v", w["k"], w["r1"], w["r2"])
	}
}

// After the on_error depth cap the session rests where the last redirect
// took it (loopb, upstream's replayed state) but the view is the
// originating state's (LOOPA), with no banner, and harness.error carries
// upstream's message (traces/p2a.jsonl turn 11).
func TestDepthCapViewIsOriginatingState(t *testing.T) {
	m := compileProbe(t, "p2")
	reg := host.NewRegistry()
	reg.Register("host.bad", stub(map[string]any{"val": "BADDATA"}, "boom", 0))
	s, err := Start(t.Context(), m, SessionOptions{Hosts: reg, Views: fakeViews{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tn := fire(t, s, "loop")
	wantState(t, s, "loopb")
	if tn.View != "VIEW loopa" {
		t.Errorf("view %q, want the originating state's without a banner", tn.View)
	}
	he := kindsOf(tn.Events, KindHarnessError)
	if len(he) != 1 || payloadMap(t, he[0].Payload)["message"] != "on_error redirect chain exceeded depth cap; staying at the originating state. A host call's on_error: arc is looping (likely the same host failing repeatedly)." {
		t.Errorf("harness.error %v", he)
	}
	tn = fire(t, s, "reset")
	if tn.View != "VIEW start" {
		t.Errorf("next turn view %q", tn.View)
	}
}

// The world a turn starts from is the replayed one (story-runtime §1.1):
// a number set by a world.update comes back a float64 (a key declared
// type: int an int64), an increment an int64 (runtime-probes p13: lit=5
// renders 5.000000 on the next turn).
func TestWorldIsReplayedBetweenTurns(t *testing.T) {
	s, _ := probe(t, "p13", "", nil)
	tn := fire(t, s, "a")
	if set := kindsOf(tn.Events, KindWorldUpdate); len(set) == 0 {
		t.Fatalf("no world.update")
	}
	if _, isF := s.World()["lit"].(float64); !isF {
		t.Errorf("lit %#v: the world read after the turn is already the replayed one (upstream's flow rig reads it back from the log)", s.World()["lit"])
	}
	fire(t, s, "b")
	w := s.World()
	if v, ok := w["lit"].(float64); !ok || v != 5 {
		t.Errorf("lit %#v, want float64 5", w["lit"])
	}
	if v, ok := w["cnt"].(int64); !ok || v != 3 {
		t.Errorf("cnt %#v, want int64 3", w["cnt"])
	}
	if v, ok := w["mp"].(map[string]any); !ok || v["k"] != float64(1) {
		t.Errorf("mp %#v, want k float64 1", w["mp"])
	}
	if v, ok := w["f"].(float64); !ok || v != 1.5 {
		t.Errorf("f %#v", w["f"])
	}
}

// Entering an import wrapper (runtime-probes/traces/imp.jsonl turns 1-2):
// machine.intent_accepted keeps the typed spelling (start_work) while
// machine.transition gets the arc's (sub__start_work); machine.transition
// comes first, then the arc's set, the wrapper's resets and world_in, the
// exit and the entries; transition.to is the descended leaf.
func TestImportWrapperEventsAsUpstream(t *testing.T) {
	s, _ := probe(t, "imports/parent", "main", nil)
	tn := fire(t, s, "begin_substory")
	var got []string
	for _, e := range tn.Events {
		p := payloadMap(t, e.Payload)
		switch e.Kind {
		case KindTransition:
			got = append(got, "T:"+p["to"].(string))
		case KindWorldUpdate:
			for k := range p["set"].(map[string]any) {
				got = append(got, "W:"+k)
			}
		case KindStateExited:
			got = append(got, "X:"+p["state"].(string))
		case KindStateEntered:
			got = append(got, "E:"+p["state"].(string))
		}
	}
	want := "T:sub.idle W:current_ticket W:sub__fail_reason W:sub__pr_url W:sub__ticket_id X:main E:sub E:sub.idle"
	if strings.Join(got, " ") != want {
		t.Errorf("events\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	tn = fire(t, s, "start_work")
	acc, tr := kindsOf(tn.Events, KindIntentAccepted), kindsOf(tn.Events, KindTransition)
	if len(acc) != 1 || payloadMap(t, acc[0].Payload)["intent"] != "start_work" {
		t.Errorf("intent_accepted %v", acc)
	}
	if len(tr) != 1 || payloadMap(t, tr[0].Payload)["intent"] != "sub__start_work" {
		t.Errorf("transition %v", tr)
	}
}

// A session writes a call's binds before its harness.returned, as upstream
// (runtime-probes/traces/p2a.jsonl turn 1: world.update r1, then
// harness.returned).
func TestBindsBeforeReturned(t *testing.T) {
	s, _ := probe(t, "p2", "", map[string]host.Handler{"host.a": stub(map[string]any{"val": "A1"}, "", 0)})
	tn := fire(t, s, "calls")
	var seq []string
	for _, e := range tn.Events {
		switch e.Kind {
		case KindHarnessReturned:
			seq = append(seq, "R")
		case KindWorldUpdate:
			if set, _ := payloadMap(t, e.Payload)["set"].(map[string]any); set != nil {
				if _, ok := set["r1"]; ok {
					seq = append(seq, "r1")
				}
			}
		}
	}
	if len(seq) < 2 || seq[0] != "r1" || seq[1] != "R" {
		t.Errorf("order %v, want r1 before the first harness.returned", seq)
	}
}

// Slot values are kept as sent (upstream never converts them): "7" for a
// type: int slot stays the string "7". Upstream checks neither slot types
// nor validators (runtime-probes p10 `val n: "abc"` is accepted), so only
// a Strict session refuses a value its validator refuses
// (docs/compat/engine.md); a validator that cannot be evaluated on the
// value (string > int) refuses nothing even then.
func TestSlotValueKeptAsSent(t *testing.T) {
	for _, strict := range []bool{false, true} {
		s, _ := probeWith(t, "p10", SessionOptions{Options: Options{Strict: strict}})
		tn, err := s.Fire(t.Context(), Input{Intent: "val", Slots: map[string]any{"n": "7"}})
		if err != nil || tn.Rejection != nil || tn.Err != nil {
			t.Fatalf("strict %v: val n=7: %v %+v %v", strict, err, tn.Rejection, tn.Err)
		}
		if got := s.World()["got"]; got != "7" {
			t.Errorf("strict %v: got %#v, want the string \"7\"", strict, got)
		}
		for _, n := range []any{3, "abc"} {
			tn, err = s.Fire(t.Context(), Input{Intent: "val", Slots: map[string]any{"n": n}})
			if refused := tn.Rejection != nil && tn.Rejection.Code == CodeInvalidSlot; err != nil || refused != strict {
				t.Errorf("strict %v: val n=%v (type: int, validator slots.n > 5): %v %+v", strict, n, err, tn.Rejection)
			}
		}
	}
}

// A slot validator that does not compile is a warning, not a refusal:
// upstream never evaluates validators, so the story must still run.
func TestUncompilableValidatorWarns(t *testing.T) {
	st := loadStory(t, "probes/p10")
	st.Intents["val"].Slots["n"].Validator = "slots.n >>> 5"
	m, err := Compile(st, CompileOptions{LateHandlers: true})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	found := false
	for _, w := range m.Warnings {
		found = found || strings.Contains(w.Message, "intents.val.slots.n: validator:")
	}
	if !found {
		t.Errorf("warnings %v", m.Warnings)
	}
}
