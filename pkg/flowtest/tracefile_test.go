package flowtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestTraceFileStatePaths runs each story under testdata/tracefile with a
// trace directory and compares the trace's (turn, kind, state_path) lines
// with its upstream.jsonl, recorded from the existing engine (see each
// README.md).
func TestTraceFileStatePaths(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "tracefile", "*"))
	if len(dirs) < 2 {
		t.Fatalf("only %d trace-file stories", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			app, _ := filepath.Abs(filepath.Join(dir, "app.yaml"))
			files, _, err := DiscoverUnder("", nil, []string{app}, "", false, nil)
			if err != nil || len(files) != 1 {
				t.Fatalf("discover: %v (%d fixtures)", err, len(files))
			}
			rs := NewRunner(Options{TraceDir: t.TempDir()}).Run(context.Background(), files)
			if len(rs) != 1 || !rs[0].Passed() {
				t.Fatalf("fixture did not pass: %+v", rs)
			}
			ours := traceLines(t, rs[0].Trace)
			want := traceLines(t, filepath.Join(dir, "upstream.jsonl"))
			if !slices.Equal(ours, want) {
				t.Errorf("trace lines differ from upstream's:\nours:\n%s\nupstream:\n%s", showLines(ours), showLines(want))
			}
		})
	}
}

// traceLines projects a trace file on "turn kind state_path" (and the
// $inbox counts of a world.update), leaving out
// the documented differences (README.md) and checking that every
// harness.dispatched has no state_path.
func traceLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type line struct {
		Turn      int     `json:"turn"`
		Kind      string  `json:"kind"`
		StatePath *string `json:"state_path"`
		Payload   struct {
			Set struct {
				Inbox json.RawMessage `json:"$inbox"`
			} `json:"set"`
		} `json:"payload"`
	}
	var evs []line
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev line
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, ev := range evs {
		switch ev.Kind {
		case "session.header", "machine.emit_intent":
			continue
		case "harness.dispatched":
			if ev.StatePath != nil {
				t.Errorf("%s: harness.dispatched of turn %d has state_path %q", path, ev.Turn, *ev.StatePath)
			}
			continue
		case "machine.intent_accepted":
			if i > 0 && evs[i-1].Kind == "machine.emit_intent" {
				continue // an emit hop's (ours only)
			}
		}
		sp := "-"
		if ev.StatePath != nil {
			sp = *ev.StatePath
		}
		l := fmt.Sprintf("%d %s %s", ev.Turn, ev.Kind, sp)
		if ib := ev.Payload.Set.Inbox; ib != nil {
			l += " $inbox=" + string(ib) // the counts a completion writes
		}
		out = append(out, l)
	}
	return out
}

func showLines(lines []string) string {
	var s string
	for _, l := range lines {
		s += "  " + l + "\n"
	}
	return s
}
