package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

const brokenStories = "../pkg/story/testdata/broken"

func TestValidateExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"clean corpus", []string{"validate", "../pkg/story/testdata/corpus/..."}, 0, "✓ ../pkg/story/testdata/corpus/fix-tests/app.yaml — valid"},
		{"error", []string{"validate", brokenStories + "/target"}, 1, "does not exist [target]"},
		{"warning only", []string{"validate", brokenStories + "/unreachable"}, 0, "[unreachable]"}, // the wording is the broken/unreachable golden's
		{"warning strict", []string{"validate", "--strict", brokenStories + "/unreachable"}, 1, "[unreachable]"},
		{"missing path", []string{"validate", "does/not/exist"}, 2, ""},
		{"bad format", []string{"validate", "--format", "xml", brokenStories + "/target"}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if !strings.Contains(out, tc.out) {
				t.Fatalf("stdout lacks %q:\n%s", tc.out, out)
			}
		})
	}
}

func TestValidateFormats(t *testing.T) {
	target := brokenStories + "/target"

	code, out, _ := runCmd(t, "validate", "--format", "json", target)
	if code != 1 {
		t.Fatalf("json exit %d", code)
	}
	var ds []map[string]any
	if err := json.Unmarshal([]byte(out), &ds); err != nil || len(ds) == 0 {
		t.Fatalf("json output is not a diagnostics array: %v\n%s", err, out)
	}
	if ds[0]["rule"] != "target" || ds[0]["line"].(float64) <= 0 {
		t.Fatalf("first diagnostic: %v", ds[0])
	}

	_, out, _ = runCmd(t, "validate", "--format", "github", target)
	if !strings.HasPrefix(out, "::error file=") || !strings.Contains(out, "title=kitsoki target::") {
		t.Fatalf("github annotations:\n%s", out)
	}

	_, out, _ = runCmd(t, "validate", "--format", "sarif", target)
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil || sarif.Version != "2.1.0" || len(sarif.Runs[0].Results) == 0 {
		t.Fatalf("sarif: %v\n%s", err, out)
	}
}

// Not a terminal: no colour, no snippet, whatever NO_COLOR says.
func TestValidateNoColorWhenPiped(t *testing.T) {
	_, out, _ := runCmd(t, "validate", brokenStories+"/target")
	if strings.Contains(out, "\x1b[") {
		t.Fatalf("colour escape in piped output: %q", out)
	}
}

// Every broken story under testdata triggers its own rule id, through the command.
func TestValidateEveryBrokenStoryFails(t *testing.T) {
	code, out, _ := runCmd(t, "validate", "--strict", "--format", "json", brokenStories+"/...")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var ds []struct {
		File string `json:"file"`
		Rule string `json:"rule"`
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatal(err)
	}
	byDir := map[string]bool{}
	for _, d := range ds {
		rest := strings.TrimPrefix(d.File, brokenStories+"/")
		byDir[strings.SplitN(rest, "/", 2)[0]] = true
	}
	entries, err := os.ReadDir(brokenStories)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !byDir[e.Name()] {
			t.Errorf("broken story %s produced no finding", e.Name())
		}
	}
}

// `validate -` checks standard input as the file --stdin-filename names:
// positions carry that name and relative files resolve beside it.
func TestValidateStdin(t *testing.T) {
	src, err := os.ReadFile(brokenStories + "/target/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := runIOContext(context.Background(), []string{"validate", "-", "--stdin-filename", brokenStories + "/target/app.yaml"}, bytes.NewReader(src), &out, &errb)
	if code != 1 || !strings.Contains(out.String(), brokenStories+"/target/app.yaml:9:21: error:") {
		t.Fatalf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
	// The buffer, not the file, is checked.
	fixed := bytes.Replace(src, []byte("target: ending"), []byte("target: end"), 1)
	fixed = bytes.Replace(fixed, []byte("target: stail"), []byte("target: stale"), 1)
	fixed = bytes.Replace(fixed, []byte(`"{% if true %}end{% endif %}"`), []byte("end"), 1)
	out.Reset()
	errb.Reset()
	code = runIOContext(context.Background(), []string{"validate", "-", "--stdin-filename", brokenStories + "/target"}, bytes.NewReader(fixed), &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "— valid") {
		t.Fatalf("fixed buffer: exit %d:\n%s%s", code, out.String(), errb.String())
	}
	if code := runIOContext(context.Background(), []string{"validate", "--stdin-filename", "x.yaml", brokenStories + "/target"}, nil, &out, &errb); code != 2 {
		t.Fatalf("--stdin-filename without -: exit %d", code)
	}
}

// --strict on warnings only prints the real verdict, not "valid".
func TestValidateStrictVerdict(t *testing.T) {
	code, out, errOut := runCmd(t, "validate", "--strict", brokenStories+"/unreachable")
	if code != 1 || strings.Contains(out, "valid") || !strings.Contains(out, "✗ "+brokenStories+"/unreachable/app.yaml — 1 warning (failing under --strict)") ||
		!strings.Contains(errOut, "(--strict: warnings fail)") {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
}

// --list-rules lists every rule with its severity, whether run refuses the
// story, a summary and an example.
func TestValidateListRules(t *testing.T) {
	code, out, _ := runCmd(t, "validate", "--list-rules")
	if code != 0 || !strings.Contains(out, "on-error-target  warning lint only") || !strings.Contains(out, "target           error   run refuses") || !strings.Contains(out, "| on:") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd(t, "validate", "--list-rules", "--format", "json")
	var rows []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) < 40 {
		t.Fatalf("json: exit %d %s", code, out)
	}
}

// Ignore comments: an unknown id is a warning; one that suppresses nothing
// is reported under --strict only (the wording is pkg/validate's ignore
// golden's; here only the places and verdicts).
func TestValidateIgnoreComments(t *testing.T) {
	dir := t.TempDir()
	app := "app: {id: x}\nroot: start\nintents: {go: {}}\nstates:\n  start:\n    on:\n      go: [{target: end}]\n  end: {terminal: true}  # kitsoki:ignore unreachable\n  island: {}  # kitsoki:ignore unreachable, no-such-rule\n"
	if err := os.WriteFile(dir+"/app.yaml", []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd(t, "validate", "-q", dir)
	if code != 0 || strings.Contains(out, "is unreachable") || !strings.Contains(out, "app.yaml:9:45: warning: ") || strings.Contains(out, "app.yaml:8:43: ") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd(t, "validate", "-q", "--strict", dir)
	if code != 1 || !strings.Contains(out, "app.yaml:8:43: warning: ") {
		t.Fatalf("strict: exit %d:\n%s", code, out)
	}
}
