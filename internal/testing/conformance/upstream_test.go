package conformance

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"kitsoki/pkg/flowtest"
)

// readUpstream reads of a report all that check compares, as ReadReport
// reads it: null and empty lists stay apart, payloads stay as written
// (null, absent, a value), and only the fields check never compares (an
// event's seq, ts, parent turn, call, episode, match index; the counts)
// are left zero. Held to ReadReport on a report written for it and on the
// largest goldens.
func TestReadUpstreamKeepsWhatIsCompared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	written := filepath.Join(dir, "upstream.json")
	if err := os.WriteFile(written, []byte(`{
  "Results": [
    {"File": "flows/a.yaml", "Passed": false, "Skipped": false, "Turns": [
      {"TurnIndex": -1, "Passed": false, "Failures": ["session: x"], "NewState": "", "View": "", "Events": null},
      {"TurnIndex": 0, "Passed": true, "Failures": null, "NewState": "a.b", "View": "V\n", "Events": []},
      {"TurnIndex": 1, "Passed": true, "Failures": [], "NewState": "c", "View": "", "Events": [
        {"turn": 2, "seq": 7, "ts": "2026-01-02T03:04:05.123456Z", "kind": "machine.transition", "state_path": "c",
         "payload": {"from": "a.b", "to": "c", "intent": "go"}, "parent_turn": 1, "call_id": "c1", "episode_id": "e1", "match_idx": 3},
        {"turn": 2, "seq": 8, "ts": "2026-01-02T03:04:05Z", "kind": "turn.end", "payload": null},
        {"turn": 0, "seq": 9, "ts": "2026-01-02T03:04:05Z", "kind": "turn.start", "state_path": ""}
      ]}
    ]},
    {"File": "flows/b.yaml", "Passed": true, "Skipped": true, "Turns": null}
  ],
  "Passed": 1,
  "Failed": 1
}`), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"Results": null, "Passed": 0, "Failed": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := append([]string{written, empty}, largestGoldens(t, 2)...)
	for _, p := range paths {
		got, err := readUpstream(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ReadReport(p)
		if err != nil {
			t.Fatal(err)
		}
		notCompared(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: readUpstream\n %+v\nReadReport, less what check does not compare\n %+v", p, got, want)
		}
	}
	if r, _ := readUpstream(written); r.Results[0].Turns[2].Events[0].Turn != 2 || string(r.Results[0].Turns[2].Events[1].Payload) != "null" {
		t.Errorf("the written report's events: %+v", r.Results[0].Turns[2].Events)
	}
	if _, err := readUpstream(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing report read")
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"Results": [{"Turns": [{"Events": [{"kind": 3}]}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readUpstream(bad); err == nil {
		t.Error("a report whose event kind is a number read")
	}
}

// notCompared zeroes in r what check does not compare.
func notCompared(r *flowtest.Report) {
	r.Passed, r.Failed = 0, 0
	for _, f := range r.Results {
		for _, tr := range f.Turns {
			for i, e := range tr.Events {
				tr.Events[i] = flowtest.ReportEvent{Turn: e.Turn, Kind: e.Kind, StatePath: e.StatePath, Payload: e.Payload, TS: time.Time{}}
			}
		}
	}
}

// largestGoldens are the n largest upstream.json files under the engine's
// conformance goldens.
func largestGoldens(t *testing.T, n int) []string {
	t.Helper()
	paths, err := filepath.Glob("../../../pkg/engine/testdata/conformance/*/upstream.json")
	if err != nil || len(paths) < n {
		t.Fatalf("goldens: %v (%d)", err, len(paths))
	}
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	slices.SortFunc(paths, func(a, b string) int { return int(size(b) - size(a)) })
	return paths[:n]
}
