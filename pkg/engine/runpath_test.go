package engine

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// runPathEvent is one trace line as TestRunPathMatchesUpstreamTurn
// compares it: its kind and its payload as JSON values.
type runPathEvent struct {
	Kind    string         `json:"kind"`
	Payload map[string]any `json:"payload"`
}

// runPathDocumented are the kinds left out of the ordered comparison, each
// by a documented choice (docs/compat/engine.md): harness.dispatched is
// compared apart (upstream writes it at the head of the turn, ours where
// the call goes out), machine.intent_accepted is ours on every direct
// intent, turn.input carries "[intent] NAME" where upstream's headless turn
// has "".
var runPathDocumented = map[string]bool{KindHarnessDispatched: true, "machine.intent_accepted": true, KindTurnInput: true}

// normalise drops what the comparison does not hold: turn.end's view (Run
// renders none here) and host.run's stdout_json (ours is the engine's own
// host.run, docs/compat/engine.md "host.run in kitsoki run").
func (e runPathEvent) normalise() runPathEvent {
	p := map[string]any{}
	for k, v := range e.Payload {
		p[k] = v
	}
	switch e.Kind {
	case KindTurnEnd:
		delete(p, "view")
	case KindHarnessReturned:
		if d, ok := p["data"].(map[string]any); ok {
			c := map[string]any{}
			for k, v := range d {
				if k != "stdout_json" {
					c[k] = v
				}
			}
			p["data"] = c
		}
	}
	return runPathEvent{Kind: e.Kind, Payload: p}
}

// readRunPathGolden reads turns/<intent>.jsonl: the events of turn 1, the
// ordered ones and the harness.dispatched payloads apart.
func readRunPathGolden(t *testing.T, path string) (ordered []runPathEvent, dispatched []map[string]any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var e struct {
			runPathEvent
			Turn int64 `json:"turn"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ordered, dispatched = splitRunPath(ordered, dispatched, e.Turn, e.runPathEvent)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ordered, dispatched
}

func splitRunPath(ordered []runPathEvent, dispatched []map[string]any, turn int64, e runPathEvent) ([]runPathEvent, []map[string]any) {
	switch {
	case turn < 1:
	case e.Kind == KindHarnessDispatched:
		dispatched = append(dispatched, e.Payload)
	case !runPathDocumented[e.Kind]:
		ordered = append(ordered, e.normalise())
	}
	return ordered, dispatched
}

// kitsoki run and a test session are one engine path, as the existing
// engine's headless turn and its flow sessions are: each intent of
// testdata/runpath writes, through Run, the turn upstream's `turn --trace`
// wrote (testdata/runpath/turns, its README), event by event.
func TestRunPathMatchesUpstreamTurn(t *testing.T) {
	needSh(t)
	for _, intent := range []string{"go", "fail", "loop", "need"} {
		t.Run(intent, func(t *testing.T) {
			want, wantDispatched := readRunPathGolden(t, filepath.Join("testdata", "runpath", "turns", intent+".jsonl"))
			// as kitsoki run passes an --intent without --slot: no slots,
			// an empty map (upstream's headless turn writes slots: {})
			res, sink := runStory(t, "runpath", "", Options{Inputs: []Input{{Intent: intent, Slots: map[string]any{}}}})
			var got []runPathEvent
			var gotDispatched []map[string]any
			for _, ev := range sink.evs {
				var e runPathEvent
				b, err := json.Marshal(map[string]any{"kind": ev.Kind, "payload": ev.Payload})
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(b, &e); err != nil {
					t.Fatal(err)
				}
				got, gotDispatched = splitRunPath(got, gotDispatched, ev.Turn, e)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("turn 1 differs from upstream's headless turn:\n%s", runPathDiff(got, want))
			}
			if !reflect.DeepEqual(gotDispatched, wantDispatched) {
				t.Errorf("harness.dispatched %v, want %v", gotDispatched, wantDispatched)
			}
			if intent == "need" {
				// a clarification upstream writes nothing for; Run cannot
				// ask, so it ends there with the --slot hint
				if res.Err == nil || !strings.Contains(res.Err.Error(), "pass --slot") {
					t.Errorf("need: err %v, want the --slot hint", res.Err)
				}
			} else if res.Err != nil {
				t.Errorf("%s: the run failed: %v", intent, res.Err)
			}
		})
	}
}

// runPathDiff lists both sides line by line, marking the first that
// differs.
func runPathDiff(got, want []runPathEvent) string {
	var b strings.Builder
	n := max(len(got), len(want))
	marked := false
	for i := range n {
		var g, w []byte
		if i < len(got) {
			g, _ = json.Marshal(got[i])
		}
		if i < len(want) {
			w, _ = json.Marshal(want[i])
		}
		mark := "  "
		if !marked && string(g) != string(w) {
			mark, marked = "> ", true
		}
		b.WriteString(mark + "got  " + string(g) + "\n" + mark + "want " + string(w) + "\n")
	}
	return b.String()
}
