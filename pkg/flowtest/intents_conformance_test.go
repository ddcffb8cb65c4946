package flowtest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestIntentsConformanceGoldens runs every story under
// testdata/intents-conformance/ (app.yaml, intents/*.yaml, recording.yaml,
// an optional args file of flags, one per line) as `kitsoki test intents
// app.yaml --json` would, and holds the text report, the JSON report
// (DurationMillis and CostUSD aside) and the exit status to the existing
// engine's (upstream.txt, upstream.json, upstream.rc). A story upstream
// refuses (upstream.rc 2) holds in want-error.txt the words our error must
// carry. Each directory's README.md says the rule it pins.
func TestIntentsConformanceGoldens(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "intents-conformance", "*", "app.yaml"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	for _, app := range dirs {
		dir := filepath.Dir(app)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			wantRC := 0
			if b, err := os.ReadFile(filepath.Join(dir, "upstream.rc")); err == nil {
				wantRC, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			rep, err := runIntentGolden(t, dir)
			if wantRC == 2 {
				want, rerr := os.ReadFile(filepath.Join(dir, "want-error.txt"))
				if rerr != nil {
					t.Fatal(rerr)
				}
				if err == nil {
					t.Fatalf("upstream refuses this story (exit 2); ours ran it")
				}
				for _, w := range strings.Split(strings.TrimSpace(string(want)), "\n") {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("upstream runs this story (exit %d); ours: %v", wantRC, err)
			}
			rc := 0
			if rep.Failed() {
				rc = 1
			}
			if rc != wantRC {
				t.Errorf("exit status %d, upstream %d", rc, wantRC)
			}
			matchUpstreamReports(t, rep, dir, dropVolatile)
		})
	}
}

// runIntentGolden runs one golden story with its args (--only, --runs,
// --recording, --intents, --baseline, --fail-regression-at).
func runIntentGolden(t *testing.T, dir string) (*IntentReport, error) {
	t.Helper()
	flags := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
		args := strings.Fields(string(b))
		for i := 0; i+1 < len(args); i += 2 {
			flags[args[i]] = args[i+1]
		}
	}
	ld, err := NewRunner(Options{}).Story(filepath.Join(dir, "app.yaml"))
	if err != nil || ld.Machine == nil {
		t.Fatalf("load %s: %v %v", dir, err, ld.CompileErr)
	}
	glob := filepath.Join(dir, "intents", "*.yaml")
	if g, ok := flags["--intents"]; ok {
		glob = filepath.Join(dir, g)
	}
	suites, err := LoadIntents("", glob, flags["--only"])
	if err != nil {
		return nil, err
	}
	rec := filepath.Join(dir, "recording.yaml")
	if r, ok := flags["--recording"]; ok {
		rec = filepath.Join(dir, r)
	}
	h, err := NewStaticHarness("", rec)
	if err != nil {
		return nil, err
	}
	runs, _ := strconv.Atoi(flags["--runs"])
	rep := RunIntents(context.Background(), suites, IntentOptions{Harness: h, Machine: ld.Machine, Jobs: 2, Runs: runs, HarnessType: "static"})
	if b, ok := flags["--baseline"]; ok {
		at := 0.05
		if s, ok := flags["--fail-regression-at"]; ok {
			at, _ = strconv.ParseFloat(s, 64)
		}
		base, err := ReadBaseline(filepath.Join(dir, b))
		if err != nil {
			return nil, err
		}
		rep.Regressions = base.Regressions(rep, at)
	}
	return rep, nil
}

// matchUpstreamReports holds rep's text report to golden/upstream.txt and
// its JSON report to golden/upstream.json, both JSON sides read by norm
// (which drops or clears what differs from run to run).
func matchUpstreamReports(t *testing.T, rep *IntentReport, golden string, norm func(*testing.T, []byte) map[string]any) {
	t.Helper()
	var text bytes.Buffer
	WriteIntentsText(&text, rep)
	wantText, err := os.ReadFile(filepath.Join(golden, "upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if text.String() != string(wantText) {
		t.Errorf("text report differs from the existing engine's\n--- got\n%s--- want\n%s", text.String(), wantText)
	}
	got, err := MarshalIntentReport(rep)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := os.ReadFile(filepath.Join(golden, "upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	if g, w := norm(t, got), norm(t, wantJSON); !reflect.DeepEqual(g, w) {
		t.Errorf("JSON report differs from the existing engine's\n--- got\n%s\n--- want\n%s", got, wantJSON)
	}
}

// dropVolatile decodes a JSON report without its wall-clock and cost
// fields.
func dropVolatile(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			delete(x, "DurationMillis")
			delete(x, "CostUSD")
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return v
}
