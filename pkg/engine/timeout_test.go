package engine

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeWait records the durations a run waits and returns at once.
type fakeWait struct{ got []time.Duration }

func (f *fakeWait) wait(ctx context.Context, d time.Duration) error {
	f.got = append(f.got, d)
	return ctx.Err()
}

// A run that rests in a state with timeout: fires it: the leaf's own, the
// next state's, then a compound's (landed on flat, without initial:
// descent, as upstream), each as one synthetic turn, until an exit.
func TestTimeoutFiresWhenResting(t *testing.T) {
	fw := &fakeWait{}
	res, sink := runWant(t, "timeout", "", Options{Wait: fw.wait}, OutcomeExit, "__exit__done")
	if want := []time.Duration{5 * time.Minute, 2 * time.Minute, 24 * time.Hour}; !reflect.DeepEqual(fw.got, want) {
		t.Errorf("waited %v, want %v", fw.got, want)
	}
	if res.Turns != 3 || !sameNum(res.World["waited"], 1) {
		t.Errorf("turns %d, waited %v", res.Turns, res.World["waited"])
	}
	var fired []string
	for _, e := range sink.kinds(KindTimeout) {
		p := payloadMap(t, e.Payload)
		fired = append(fired, p["from"].(string)+"→"+p["to"].(string))
	}
	if want := []string{"waiting→escalate", "escalate→pipeline", "pipeline→__exit__done"}; !reflect.DeepEqual(fired, want) {
		t.Errorf("machine.timeout events %v, want %v", fired, want)
	}
	for _, e := range sink.kinds(KindTransition) {
		if p := payloadMap(t, e.Payload); p["intent"] != "__timeout__" {
			t.Errorf("timeout transition %v", p)
		}
	}
	if got := strings.Join(sink.entered(), " "); got != "waiting escalate pipeline __exit__done" {
		t.Errorf("entered %s", got)
	}
}

// Input comes first: a consumed intent leaves the timed state before its
// timeout, and a state without timeout: rests as before.
func TestTimeoutInputFirst(t *testing.T) {
	fw := &fakeWait{}
	runWant(t, "timeout", "", Options{Wait: fw.wait, Inputs: []Input{{Intent: "go"}}}, OutcomeRested, "idle")
	if len(fw.got) != 0 {
		t.Errorf("waited %v", fw.got)
	}
}

// The run's context (kitsoki run --timeout, Ctrl-C) wins over a pending
// timeout, with the real timer.
func TestTimeoutInterruptedByContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := compileStory(t, "timeout")
	sink := &recSink{}
	res := RunSession(ctx, m, SessionOptions{Bootstrap: true, Options: Options{Sink: sink, Notes: func(n Note) {
		if n.Kind == "timeout" {
			cancel() // the run is now waiting 5m
		}
	}}})
	if res.Outcome != OutcomeFailed || !errors.Is(res.Err, context.Canceled) || !strings.Contains(res.Err.Error(), `waiting 5m for the timeout of "waiting"`) {
		t.Fatalf("outcome %s err %v", res.Outcome, res.Err)
	}
	if len(sink.kinds(KindTimeout)) != 0 || res.State != "waiting" {
		t.Errorf("timeout fired after the interrupt: state %s", res.State)
	}
}

// The real timer fires a short timeout.
func TestTimeoutRealTimer(t *testing.T) {
	st := loadStory(t, "timeout")
	st.States[1].Timeout().After = "1ms"
	m, err := Compile(st, CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Root = "escalate"
	m.States["pipeline"].Timeout = nil
	res := RunSession(context.Background(), m, SessionOptions{Bootstrap: true})
	wantOutcome(t, res, OutcomeRested, "pipeline")
}

// A templated after: is never rendered, as upstream (conformance
// timeout-after-template): the state stays unarmed even when the template
// would give a duration ("2m" here), with a note that names the position;
// the run rests.
func TestTimeoutBadRenderedAfter(t *testing.T) {
	st := loadStory(t, "timeout")
	st.States[1].Timeout().After = "{{ world.delay }}"
	w := StoryWorld(st)
	m, err := Compile(st, CompileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.Root = "escalate"
	fw := &fakeWait{}
	var notes []Note
	res := RunSession(context.Background(), m, SessionOptions{Bootstrap: true, Options: Options{World: w, Wait: fw.wait, Notes: func(n Note) { notes = append(notes, n) }}})
	wantOutcome(t, res, OutcomeRested, "escalate")
	if len(fw.got) != 0 {
		t.Errorf("waited %v, want no wait", fw.got)
	}
	found := false
	for _, n := range notes {
		found = found || n.Kind == "timeout" && strings.Contains(n.Error, `app.yaml:18:`) && strings.Contains(n.Error, `timeout.after "{{ world.delay }}" is a template, which is not rendered`)
	}
	if !found {
		t.Errorf("no timeout note naming the position: %+v", notes)
	}
}

// Compile refuses what a timeout cannot do, by position; a target "."
// loads, as upstream (it never fires: conformance clock/stay-target).
func TestTimeoutRefused(t *testing.T) {
	st := loadStory(t, "timeout")
	st.States[0].Timeout().After = "five minutes"
	st.States[1].Timeout().Target = "."
	_, err := Compile(st, CompileOptions{})
	var ce *CompileError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(ce.Problems[0].String(), `app.yaml:14:`) || !strings.Contains(ce.Problems[0].Message, `invalid duration "five minutes"`) {
		t.Errorf("problems:\n%v", err)
	}
}
