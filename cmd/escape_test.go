package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/trace"
)

// evilText is what a repository's author or a trace's writer puts in a
// string kitsoki prints: a newline followed by a GitHub workflow command,
// an OSC 8 hyperlink, an SGR escape, a C1 CSI and bidi controls.
const evilText = "\x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \x1b[31mred \u009b2J \u202eevil\u2066 x\n::error file=evil.yaml::pwned"

// evilYAML is evilText as a YAML double-quoted scalar.
const evilYAML = `"\e]8;;http://evil.example\alink\e]8;;\a \e[31mred \u009b2J \u202eevil\u2066 x\n::error file=evil.yaml::pwned"`

// checkSafe fails t when out holds a control character a terminal would
// obey, or a line a CI runner would read as a command other than
// kitsoki's own annotations (::error file=<escaped path>, never evil.yaml).
func checkSafe(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.IndexFunc(out, termsafe.IsControl); i >= 0 {
		t.Errorf("%s: raw control character %q at byte %d:\n%s", what, out[i:min(len(out), i+8)], i, out)
	}
	for line := range strings.SplitSeq(out, "\n") {
		trimmed := strings.TrimSpace(line)
		if termsafe.IsCommandLine(line) && (!strings.HasPrefix(line, "::error file=") || strings.HasPrefix(trimmed, "::error file=evil")) {
			t.Errorf("%s: a line a CI runner reads as a command: %q\n%s", what, line, out)
		}
	}
	if !strings.Contains(out, `\x1b`) && !strings.Contains(out, "%1B") && !strings.Contains(out, `\u001b`) {
		t.Errorf("%s: the evilText string is not in the output at all (the test would prove nothing):\n%s", what, out)
	}
}

// TestHostileStringsInTestOutput: a fixture file name and an expect_state
// value carrying a workflow command and escape sequences reach kitsoki
// test's text and --format github output escaped.
func TestHostileStringsInTestOutput(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": "app: {id: esc, version: 0.1.0}\nintents:\n  go: {description: go}\nroot: idle\nstates:\n  idle:\n    on:\n      go: [{target: s}]\n  s:\n    terminal: true\n",
		"flows/a\n::error file=evil.yaml::pwned \x1b]8;;evil\x07.yaml": "test_kind: flow\nturns:\n  - intent: go\n    expect_state: " + evilYAML + "\n",
	})
	for _, format := range []string{"text", "github"} {
		code, out, errOut := runCmd(t, "test", dir, "--format", format)
		if code != 1 {
			t.Fatalf("--format %s: exit %d, want 1 (the fixture fails)\n%s%s", format, code, out, errOut)
		}
		checkSafe(t, "test --format "+format, out+errOut)
	}
	code, out, errOut := runCmd(t, "test", "flows", filepath.Join(dir, "app.yaml"), "--format", "github")
	if code != 1 {
		t.Fatalf("test flows: exit %d\n%s%s", code, out, errOut)
	}
	checkSafe(t, "test flows --format github", out+errOut)
}

// TestHostileTraceHeader: a trace whose header and events carry escape
// sequences, C1 and bidi controls and a workflow command is listed and
// shown escaped.
func TestHostileTraceHeader(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "20260101T000000Z-evil-0000.jsonl")
	// The writer refuses a line feed in a header's ids; a hostile writer
	// does not use it: the header is rewritten by hand afterwards.
	w, err := trace.CreateWith(p, trace.Header{AppID: "APPID", Story: "STORY", Generator: "GEN"}, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(trace.Event{Turn: 1, StatePath: "STATE", Kind: "machine.say", Payload: map[string]string{"text": evilText}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(trace.Event{Turn: 1, StatePath: "STATE", Kind: "x.customKIND", Payload: map[string]string{"v": evilText}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := json.Marshal(evilText)
	q := strings.Trim(string(h), `"`)
	storytest.WriteFile(t, p, strings.NewReplacer("APPID", q, "STORY", q, "GEN", q, "STATE", q, "KIND", q).Replace(string(raw)))
	code, out, errOut := runCmd(t, "trace", "ls", "--sessions-dir", dir)
	if code != 0 {
		t.Fatalf("trace ls: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "trace ls", out+errOut)
	code, out, errOut = runCmd(t, "trace", "show", p, "--color", "never")
	if code != 0 {
		t.Fatalf("trace show: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "trace show", out+errOut)
	code, out, errOut = runCmd(t, "trace", "show", p, "--color", "never", "--kind", "x.")
	if code != 0 {
		t.Fatalf("trace show --kind: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "trace show --kind", out+errOut)
}

// TestHostileStringsInPluginsRunEval: a manifest's summary (kitsoki
// plugins), a say line (kitsoki run) and a report's model name (kitsoki
// eval show) are printed escaped.
func TestHostileStringsInPluginsRunEval(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":                           "app: {id: esc, version: 0.1.0}\nroot: s\nstates:\n  s:\n    on_enter:\n      - say: " + evilYAML + "\n    terminal: true\n",
		".kitsoki/plugins/spy/manifest.yaml": "id: spy\nsummary: " + evilYAML + "\nhooks: [{point: run/end}]\nentry: {command: /nonexistent}\n",
	})
	code, out, errOut := runCmd(t, "plugins", dir)
	if code != 0 {
		t.Fatalf("plugins: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "plugins", out+errOut)

	code, out, errOut = runCmd(t, "run", dir, "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	checkSafe(t, "run", out+errOut)

	b, err := os.ReadFile(filepath.Join(evCorpus, "evals", "reports", "merge_judge", "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := json.Marshal(evilText)
	rep := filepath.Join(t.TempDir(), "evil.json")
	storytest.WriteFile(t, rep, strings.ReplaceAll(string(b), `"syn:small:text"`, string(h)))
	code, out, errOut = runCmd(t, "eval", "show", rep)
	if code != 0 {
		t.Fatalf("eval show: exit %d\n%s", code, errOut)
	}
	checkSafe(t, "eval show", out+errOut)
}

// TestHostileStringsInTestJSONReport: encoding/json leaves C1 controls
// and bidi controls raw, so a world value holding them reached the
// terminal through kitsoki test --json -; the report escapes them as
// \uXXXX (the same JSON value) on stdout and in the file.
func TestHostileStringsInTestJSONReport(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml":     "app: {id: esc, version: 0.1.0}\nworld:\n  s: {type: string, default: " + evilYAML + "}\nintents:\n  go: {description: go}\nroot: idle\nstates:\n  idle:\n    on:\n      go: [{target: s}]\n  s:\n    terminal: true\n",
		"flows/a.yaml": "test_kind: flow\nturns:\n  - intent: go\n    expect_world: {s: x}\n",
	})
	file := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := runCmd(t, "test", dir, "--sandbox", "--json", "-")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the fixture fails)\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCmd(t, "test", dir, "--sandbox", "--json", file); code != 1 {
		t.Fatalf("--json FILE: exit %d\n%s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"--json -": out, "--json FILE": string(data)} {
		checkSafe(t, what, s)
		var v any
		if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &v); err != nil {
			t.Errorf("%s: not JSON: %v", what, err)
		}
		if !strings.Contains(s, `\u009b2J \u202eevil\u2066`) {
			t.Errorf("%s: the C1 and bidi controls are not escaped as \\uXXXX:\n%s", what, s)
		}
	}
}

// TestHostileStringsInJSONOutputs: C1 and bidi controls in a trace's
// header and calls reach trace export and trace ls --json escaped as
// \uXXXX (encoding/json leaves them raw), the output still the same JSON.
func TestHostileStringsInJSONOutputs(t *testing.T) {
	dir := t.TempDir()
	evil := `x\u009b2J \u202eevil\u2066 \u001b[31m`
	lines := []string{
		`{"kind":"session.header","schema_version":1,"written_at":"2026-01-01T00:00:00Z","app_id":"` + evil + `","story":"app.yaml","generator":"kitsoki dev"}`,
		`{"turn":1,"seq":0,"ts":"2026-01-01T00:00:00Z","kind":"agent.call.start","state_path":"s","payload":{"call_id":"c1","agent":"` + evil + `","verb":"decide","model":"` + evil + `"}}`,
	}
	p := filepath.Join(dir, "20260101T000000Z-x-0000.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"trace", "export", p}, {"trace", "ls", "--json", "--sessions-dir", dir}} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		checkSafe(t, strings.Join(args[:2], " "), out)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%v: not JSON: %v", args, err)
		}
	}
}

// TestJSONWriterSplitRunes: a C1 or bidi control split across Writes is
// still escaped, and an unfinished rune at the end is flushed as it is.
func TestJSONWriterSplitRunes(t *testing.T) {
	in := "{\"a\": \"x\u009b2J \u202eé✓\"}\n"
	var b strings.Builder
	jw := &jsonWriter{w: &b}
	for i := range len(in) {
		if _, err := jw.Write([]byte{in[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := jw.Write([]byte{0xe2, 0x80}); err != nil {
		t.Fatal(err)
	}
	if err := jw.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "{\"a\": \"x\\u009b2J \\u202eé✓\"}\n\xe2\x80"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
