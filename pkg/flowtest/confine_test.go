package flowtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

const fixtureCanary = "SECRET-CANARY-4d1b0a"

// A file a fixture names (host_cassette, recording, starlark_*_cassette)
// outside the project root, by an absolute path, a "../" or a symlink, is
// refused unread: the fixture fails at the key's value (where validate
// reports it), naming the path as written, and the secret appears nowhere
// in the result.
func TestFixtureFilesOutsideRootRefused(t *testing.T) {
	for _, tc := range []struct {
		name, key, value string
		link             bool // cassettes/x.yaml links to the secret
	}{
		{"host_cassette absolute", "host_cassette", "ABS", false},
		{"host_cassette dotdot", "host_cassette", "../../secret/x.yaml", false},
		{"host_cassette symlink", "host_cassette", "../cassettes/x.yaml", true},
		{"recording absolute", "recording", "ABS", false},
		{"recording dotdot", "recording", "../../secret/x.yaml", false},
		{"starlark_http_cassette absolute", "starlark_http_cassette", "ABS", false},
		{"starlark_http_cassette dotdot", "starlark_http_cassette", "../../secret/x.yaml", false},
		{"starlark_inspect_cassette dotdot", "starlark_inspect_cassette", "../../secret/x.yaml", false},
		{"starlark_inspect_cassette symlink", "starlark_inspect_cassette", "../cassettes/x.yaml", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			secret := filepath.Join(base, "secret", "x.yaml")
			value := tc.value
			if value == "ABS" {
				value = secret
			}
			storytest.WriteTree(t, base, map[string]string{
				"secret/x.yaml":     fixtureCanary + ": {kind: host_cassette}\n",
				"repo/.git/HEAD":    "ref: refs/heads/main\n",
				"repo/app.yaml":     "app: {id: fx}\nroot: s\nintents: {go: {}}\nstates:\n  s:\n    on:\n      go: [{target: e}]\n  e: {terminal: true}\n",
				"repo/flows/f.yaml": "test_kind: flow\n" + tc.key + ": " + value + "\nturns:\n  - intent: {name: go}\n    expect_state: e\n",
			})
			repo := filepath.Join(base, "repo")
			if tc.link {
				if err := os.MkdirAll(filepath.Join(repo, "cassettes"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("../../secret/x.yaml", filepath.Join(repo, "cassettes", "x.yaml")); err != nil {
					t.Fatal(err)
				}
			}
			app := filepath.Join(repo, "app.yaml")
			rs := runRefused(t, app)
			f := rs[0].Fatal
			want := "leaves the project root " + repo
			if tc.link {
				want = "goes through a symlink leading out of the project root " + repo
			}
			if f.Pos.Line != 2 || f.Pos.Col != len(tc.key)+3 || !strings.Contains(f.Message, tc.key+" \""+value+"\" "+want) || !strings.Contains(f.Message, "--root") {
				t.Fatalf("refusal at %d:%d: %s", f.Pos.Line, f.Pos.Col, f.Message)
			}
			out, _ := json.Marshal(rs[0])
			if strings.Contains(string(out), fixtureCanary) {
				t.Fatalf("the secret reached the result: %s", out)
			}
			// validate's fixture lint says the same, at the value
			ds, _ := LintStorySources(app, storyload.Load(t, app, story.Options{}))
			found := false
			for _, d := range ds {
				if strings.Contains(d.String(), fixtureCanary) {
					t.Fatalf("the secret reached a diagnostic: %s", d)
				}
				found = found || (d.Rule == "flow-outside-root" && d.Line == 2 && d.Col == len(tc.key)+3)
			}
			if !found {
				t.Fatalf("lint: %v", ds)
			}
		})
	}
}

// TestFixtureRefusesEveryOutsidePath: kitsoki test refuses every file a
// fixture opens that leaves the project root at once, each where validate
// reports it (the value), in the file's order: the first is the fixture's fatal failure, the
// others session failures. It stopped at the first key, placed at the key
// (5:1) while validate said 5:16.
func TestFixtureRefusesEveryOutsidePath(t *testing.T) {
	base := t.TempDir()
	storytest.WriteTree(t, base, map[string]string{
		"secret/x.yaml":  fixtureCanary + ": {kind: host_cassette}\n",
		"repo/.git/HEAD": "ref: refs/heads/main\n",
		"repo/app.yaml":  "app: {id: fx}\nroot: s\nintents: {go: {}}\nstates:\n  s:\n    on:\n      go: [{target: e}]\n  e: {terminal: true}\n",
		"repo/flows/f.yaml": "test_kind: flow\n" +
			"recording: ../../secret/x.yaml\n" +
			"host_cassette: " + filepath.Join(base, "secret", "x.yaml") + "\n" +
			"starlark_http_cassette: ../../../../../../secret/x.yaml\n" +
			"starlark_inspect_cassette: ../../secret/x.yaml\n" +
			"turns:\n  - input: go\n    expect_state: e\n",
	})
	app := filepath.Join(base, "repo", "app.yaml")
	rs := runRefused(t, app)
	var got []string
	for _, f := range append([]Failure{*rs[0].Fatal}, rs[0].Failures...) {
		got = append(got, fmt.Sprintf("%d:%d: %s", f.Pos.Line, f.Pos.Col, f.Message))
	}
	ds, _ := LintStorySources(app, storyload.Load(t, app, story.Options{}))
	var want []string
	for _, d := range diag.Sort(ds) {
		if d.Rule == ruleOutsideRoot.ID {
			want = append(want, fmt.Sprintf("%d:%d: %s", d.Line, d.Col, d.Message))
		}
	}
	if len(want) != 4 || !slices.Equal(got, want) {
		t.Fatalf("kitsoki test refused:\n%s\nvalidate (4 findings wanted):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the text report prints them together at the fatal line's indent,
	// under no "session" header
	var text strings.Builder
	WriteText(&text, rs)
	for _, pos := range []string{"f.yaml:2:12", "f.yaml:3:16", "f.yaml:4:25", "f.yaml:5:28"} {
		if !regexp.MustCompile(`(?m)^      \S*` + regexp.QuoteMeta(pos) + `: `).MatchString(text.String()) {
			t.Errorf("the text report does not print %s at the fatal line's indent:\n%s", pos, text.String())
		}
	}
	if strings.Contains(text.String(), "session") {
		t.Errorf("the text report puts refusals under a session header:\n%s", text.String())
	}
	// the JUnit report leads with the fatal refusal and lists them all
	var junit strings.Builder
	if err := WriteJUnit(&junit, rs); err != nil {
		t.Fatal(err)
	}
	for _, pos := range []string{`line="2"`, "f.yaml:2:12", "f.yaml:3:16", "f.yaml:4:25", "f.yaml:5:28"} {
		if !strings.Contains(junit.String(), pos) {
			t.Errorf("the JUnit report does not name %s:\n%s", pos, junit.String())
		}
	}
}

// runRefused runs the one fixture of the story at app, which must not run
// (a fatal failure).
func runRefused(t *testing.T, app string) []*Result {
	t.Helper()
	files, _, err := DiscoverUnder("", nil, []string{app}, "", true, nil)
	if err != nil || len(files) != 1 {
		t.Fatalf("%v %d", err, len(files))
	}
	rs := NewRunner(Options{Jobs: 1}).Run(context.Background(), files)
	if len(rs) != 1 || rs[0].Fatal == nil {
		t.Fatalf("the fixture ran: %+v", rs)
	}
	return rs
}
