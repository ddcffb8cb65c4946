package testrun

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const storyYAML = `app: {id: t, version: 0.1.0, title: T}
intents:
  go: {description: go}
root: a
states:
  a:
    on:
      go: b
  b: {}
`

const fixture = `test_kind: flow
app: ../app.yaml
initial_state: a
turns:
  - intent: {name: go}
    expect_state: b
`

// writeStory makes a story with the given flows/ files and returns its app.yaml.
func writeStory(t *testing.T, flows map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(app, []byte(storyYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range flows {
		if err := os.WriteFile(filepath.Join(dir, "flows", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return app
}

// TestFixturesShardAndRun: --run picks by file name, --shard takes its
// slice of what --run left, and all keeps every fixture found.
func TestFixturesShardAndRun(t *testing.T) {
	app := writeStory(t, map[string]string{"a.yaml": fixture, "b.yaml": fixture, "c.yaml": fixture, "skip.yaml": fixture})
	p := &Plan{Apps: []string{app}, Rel: true, RunRE: regexp.MustCompile(`^[abc]`), Shard: 1, Shards: 2}
	var diags bytes.Buffer
	all, files, err := p.Fixtures("", nil, &diags, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || len(files) == 0 || len(files) >= len(all) || diags.Len() != 0 {
		t.Fatalf("all %d, shard %d, diagnostics %q; want 3 fixtures, shard 1/2 a proper part of them, none", len(all), len(files), diags.String())
	}
	for _, f := range all {
		if strings.HasSuffix(f.Path, "skip.yaml") {
			t.Errorf("--run ^[abc] kept %s", f.Path)
		}
	}
}

// TestFixturesRefuseOnError: a fixture error is written (with an
// annotation when asked) and nothing runs.
func TestFixturesRefuseOnError(t *testing.T) {
	app := writeStory(t, map[string]string{"a.yaml": fixture, "bad.yaml": "test_kind: flow\nturns: 3\n"})
	p := &Plan{Apps: []string{app}, Rel: true}
	var diags, annotations bytes.Buffer
	all, files, err := p.Fixtures("", nil, &diags, &annotations)
	if err == nil || !strings.Contains(err.Error(), "fixture error(s): the fixtures above cannot run") || all != nil || files != nil {
		t.Fatalf("err %v, %d/%d fixtures; want the fixture-error refusal and none", err, len(all), len(files))
	}
	if !strings.Contains(diags.String(), "bad.yaml") || !strings.Contains(annotations.String(), "::error") {
		t.Errorf("diagnostics %q, annotations %q; want the error in both", diags.String(), annotations.String())
	}
}

// TestFixturesUpstreamNoMatch: the `test flows` spelling refuses a glob
// that matches no file; the plain spelling finds none and says nothing.
func TestFixturesUpstreamNoMatch(t *testing.T) {
	app := writeStory(t, nil)
	glob := filepath.Join(filepath.Dir(app), "flows", "*.yaml")
	for _, upstream := range []bool{false, true} {
		p := &Plan{Apps: []string{app}, Glob: glob, Upstream: upstream}
		_, files, err := p.Fixtures("", nil, &bytes.Buffer{}, nil)
		if upstream != (err != nil) || len(files) != 0 {
			t.Errorf("upstream %v: err %v, %d fixtures", upstream, err, len(files))
		}
		if upstream && err != nil && !strings.Contains(err.Error(), "no flow fixtures matched") {
			t.Errorf("upstream: %v", err)
		}
	}
}

// TestTraceDir: --trace-dir is created; --trace-out alone gets a
// temporary directory its cleanup removes; neither is no directory.
func TestTraceDir(t *testing.T) {
	want := filepath.Join(t.TempDir(), "traces", "deep")
	dir, cleanup, err := TraceDir(want, "")
	if err != nil || dir != want {
		t.Fatalf("TraceDir(%s): %q, %v", want, dir, err)
	}
	cleanup()
	if st, err := os.Stat(want); err != nil || !st.IsDir() {
		t.Errorf("--trace-dir %s not created, or removed by cleanup: %v", want, err)
	}
	tmp, cleanup, err := TraceDir("", "out.jsonl")
	if err != nil || tmp == "" {
		t.Fatalf("TraceDir with --trace-out: %q, %v", tmp, err)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatal(err)
	}
	cleanup()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary trace dir %s left after cleanup: %v", tmp, err)
	}
	if none, _, err := TraceDir("", ""); none != "" || err != nil {
		t.Errorf("no flags: %q, %v", none, err)
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := TraceDir(filepath.Join(file, "sub"), ""); err == nil || !strings.HasPrefix(err.Error(), "--trace-dir: ") {
		t.Errorf("a trace dir under a file: %v, want a --trace-dir error", err)
	}
}

// TestNoFixturesManyStories: over several stories the line names the glob
// under each and how many stories were looked at.
func TestNoFixturesManyStories(t *testing.T) {
	p := &Plan{Apps: []string{"a/app.yaml", "b/app.yaml"}, Rel: true}
	if got, want := p.NoFixtures(), "kitsoki test: no flow fixtures found (looked for <story>/flows/*.yaml in 2 stories)"; got != want {
		t.Errorf("NoFixtures() = %q, want %q", got, want)
	}
}
