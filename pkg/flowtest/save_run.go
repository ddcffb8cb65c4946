package flowtest

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"kitsoki/pkg/engine"
)

// SaveRun is what a finished `kitsoki run` hands [SaveFixture].
type SaveRun struct {
	// Story is the app.yaml the run loaded.
	Story string
	// World is the world the run started with (the story's defaults with
	// --world-file and --world applied), before turn 0.
	World map[string]any
	// Inputs are the --intent/--slot inputs, their slots typed.
	Inputs []engine.Input
	// Result is how the run ended.
	Result *engine.Result
	// Recorder holds the run's events.
	Recorder *SaveRecorder
}

// answer is one call's answer as a stub gives it back (Pos unset).
type answer = Envelope

// equal reports whether two answers are the same (their Pos aside).
func (a answer) equal(b answer) bool {
	return a.Error == b.Error && a.InfraError == b.InfraError && reflect.DeepEqual(a.Data, b.Data)
}

// call is one host or agent call the run made after turn 0.
type call struct {
	Turn      int64
	Namespace string
	ID        string // args.call, "" when the effect has no id:
	Answer    answer
}

// runFacts is a run read back from its events.
type runFacts struct {
	initialState string
	initialWorld map[string]any
	inputs       []engine.Input
	states       []string // the state after each input (the run's)
	jobTurns     []bool   // the input's turn submitted a background job
	calls        []call
	lateTurns    bool // timeouts or completions ran after the last input
}

func readRun(run SaveRun) (*runFacts, error) {
	res := run.Result
	if res == nil || run.Recorder == nil {
		return nil, fmt.Errorf("no run to save")
	}
	evs := run.Recorder.recorded()
	consumed := len(run.Inputs) - res.Unconsumed
	f := &runFacts{inputs: run.Inputs[:consumed]}

	// each input's turn.input state_path is where the run rested before
	// it; turn.end names where a turn landed in full (a parallel one too)
	var inputTurns []int64
	landed := map[int64]string{}
	for _, ev := range evs {
		if ev.kind == engine.KindTurnInput {
			inputTurns = append(inputTurns, ev.turn)
			f.states = append(f.states, ev.state)
		}
		if to, _ := ev.payload["to"].(string); ev.kind == engine.KindTurnEnd && to != "" {
			landed[ev.turn] = to
		}
	}
	if len(inputTurns) != consumed {
		return nil, fmt.Errorf("the trace shows %d input turn(s) for %d consumed --intent input(s)", len(inputTurns), consumed)
	}
	if consumed == 0 {
		f.initialState = res.State
	} else {
		f.initialState = f.states[0]
		f.states = f.states[1:]
	}
	f.states = append(f.states, res.State)
	for i, t := range inputTurns[:max(consumed-1, 0)] {
		if to, ok := landed[t]; ok && sameRest(to, f.states[i]) {
			f.states[i] = to
		}
	}

	f.initialWorld = jsonWorld(run.World)
	if f.initialWorld == nil {
		f.initialWorld = map[string]any{}
	}
	first, last := int64(-1), int64(-1)
	if consumed > 0 {
		first, last = inputTurns[0], inputTurns[consumed-1]
	}
	f.jobTurns = make([]bool, consumed)
	for _, ev := range evs {
		if ev.kind == engine.KindWorldUpdate && (first < 0 || ev.turn < first) {
			foldUpdate(f.initialWorld, ev.payload)
		}
		if ev.kind == engine.KindJobSubmitted {
			if i := slices.Index(inputTurns, ev.turn); i >= 0 { // (one turn.input per turn)
				f.jobTurns[i] = true
			}
		}
		if ev.kind == engine.KindTurnStart && ev.turn > last && last >= 0 {
			// a completion is that turn's clock step; a timeout, a turn of its own
			if k, _ := ev.payload["kind"].(string); k == "background_completion" {
				f.jobTurns[consumed-1] = true
			} else {
				f.lateTurns = true
			}
		}
	}
	f.calls = readCalls(evs, first, res.Jobs)
	return f, nil
}

// foldUpdate applies a world.update payload's set and increment to w.
func foldUpdate(w map[string]any, p map[string]any) {
	set, _ := p["set"].(map[string]any)
	maps.Copy(w, set)
	inc, _ := p["increment"].(map[string]any)
	for k, d := range inc {
		base, _ := w[k].(float64)
		dd, _ := d.(float64)
		w[k] = base + dd
	}
}

// readCalls pairs each foreground call from turn first on with its
// answer, and each background job's from the run's jobs.
func readCalls(evs []savedEvent, first int64, jobs []engine.JobInfo) []call {
	if first < 0 {
		return nil
	}
	var out []call
	pending := map[string][]int{} // namespace -> indexes in out waiting for an answer
	bg := map[string][]int{}
	for _, ev := range evs {
		if ev.turn < first {
			continue
		}
		switch ev.kind {
		case engine.KindHarnessCalled:
			ns, _ := ev.payload["namespace"].(string)
			args, _ := ev.payload["args"].(map[string]any)
			id, _ := args["call"].(string)
			out = append(out, call{Turn: ev.turn, Namespace: ns, ID: id})
			if b, _ := ev.payload["background"].(bool); b {
				bg[ns] = append(bg[ns], len(out)-1)
			} else {
				pending[ns] = append(pending[ns], len(out)-1)
			}
		case engine.KindHarnessReturned:
			ns, _ := ev.payload["namespace"].(string)
			q := pending[ns]
			if len(q) == 0 {
				continue
			}
			i := q[0]
			pending[ns] = q[1:]
			data, _ := ev.payload["data"].(map[string]any)
			msg, _ := ev.payload["error"].(string)
			out[i].Answer = answerOf(data, msg)
		}
	}
	// Background jobs, in creation order per namespace.
	byNS := map[string][]engine.JobInfo{}
	for _, j := range slices.SortedFunc(slices.Values(jobs), func(a, b engine.JobInfo) int { return a.Seq - b.Seq }) {
		byNS[j.Namespace] = append(byNS[j.Namespace], j)
	}
	for ns, idx := range bg {
		js := byNS[ns]
		for k, i := range idx[:min(len(idx), len(js))] {
			j := js[k]
			msg := ""
			if j.Status == engine.JobFailed {
				msg = j.Error
			}
			out[i].Answer = answerOf(jsonWorld(j.Result), msg)
		}
	}
	return out
}

// answerOf is a call's data and error as a stub's answer: an error
// without data is an infra error, with data a domain error.
func answerOf(data map[string]any, msg string) answer {
	a := answer{Data: data}
	switch {
	case msg == "":
	case a.Data == nil:
		a.InfraError = msg
	default:
		a.Error = msg
	}
	return a
}

// sameRest reports whether the state path full rests in leaf.
func sameRest(full, leaf string) bool {
	return full == leaf || slices.Contains(leaves(full), leaf)
}
