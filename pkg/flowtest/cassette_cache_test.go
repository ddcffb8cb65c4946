package flowtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestCassetteParsedOnceForTheSameBytes: the run parses a cassette once for
// the same layer, name and bytes, again for other bytes, and past
// maxCachedCassettes for every call.
func TestCassetteParsedOnceForTheSameBytes(t *testing.T) {
	var cc cassetteCache
	parses := 0
	parse := func() (any, error) { parses++; return parses, nil }
	for range 5 {
		if _, err := cc.parsed("host", "c.yaml", []byte("a"), parse); err != nil {
			t.Fatal(err)
		}
	}
	if parses != 1 {
		t.Fatalf("5 loads of the same bytes parsed %d times, want once", parses)
	}
	_, _ = cc.parsed("host", "c.yaml", []byte("b"), parse)
	_, _ = cc.parsed("agent", "c.yaml", []byte("a"), parse)
	if parses != 3 {
		t.Fatalf("other bytes, another layer: %d parses, want 3", parses)
	}
	big := []byte(strings.Repeat("x", maxCachedCassettes))
	_, _ = cc.parsed("host", "big.yaml", big, parse)
	_, _ = cc.parsed("host", "big.yaml", big, parse)
	if parses != 5 {
		t.Fatalf("a cassette past the cap: %d parses, want 5 (one a load)", parses)
	}
}

// TestFixturesShareACassetteFreshly: fixtures naming one host cassette get
// its parse once but a replay of their own: an episode that replays once
// answers the one call of every fixture, two at a time.
func TestFixturesShareACassetteFreshly(t *testing.T) {
	dir := t.TempDir()
	tree := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"app.yaml": `app: {id: share}
world:
  out: {type: string, default: ""}
intents:
  go: {}
root: a
states:
  a:
    view: "{{ world.out }}"
    on:
      go:
        - target: a
          effects:
            - invoke: host.run
              with: {cmd: "echo hi"}
              bind: {out: stdout}
`,
		"flows/c.yaml": "kind: host_cassette\nepisodes:\n  - id: once\n    match: {handler: host.run}\n    response: {data: {stdout: replayed}}\n",
	}
	for i := range 6 {
		tree[fmt.Sprintf("flows/f%d.yaml", i)] = "test_kind: flow\napp: ../app.yaml\ninitial_state: a\nhost_cassette: c.yaml\nturns:\n  - intent: {name: go, slots: {}}\n    expect_world: {out: replayed}\n"
	}
	storytest.WriteTree(t, dir, tree)
	r := runSharing(t, dir, 6)
	if n := len(r.cassettes.m); n != 1 {
		t.Errorf("the run holds %d parses of the one cassette, want 1 (its host layer's)", n)
	}
}

// TestFixturesShareAnHTTPCassetteFreshly: copies of the corpus's
// starlark_min happy fixture share one parse of its Starlark HTTP cassette,
// each replaying it from the start (its __http_exchanges log its own).
func TestFixturesShareAnHTTPCassetteFreshly(t *testing.T) {
	dir := t.TempDir()
	storytest.CopyTree(t, storytest.Shared(t, "corpus/starlark_min"), dir)
	happy, err := os.ReadFile(filepath.Join(dir, "flows", "happy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := os.WriteFile(filepath.Join(dir, "flows", fmt.Sprintf("happy%d.yaml", i)), happy, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runSharing(t, dir, 6)
}

// TestFixturesShareAnInspectCassetteFreshly: fixtures naming one
// starlark_inspect_cassette share its parse, each replaying it from the
// start: its one read of notes.txt answers every fixture's script, two at
// a time; a recording named by every fixture is parsed once too.
func TestFixturesShareAnInspectCassetteFreshly(t *testing.T) {
	dir := t.TempDir()
	tree := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"app.yaml": `app: {id: share}
hosts: [host.starlark.run]
world:
  out: {type: any}
intents:
  go: {}
root: a
states:
  a:
    view: "A"
    on:
      go: [{target: b}]
  b:
    view: "out={{ world.out }}"
    on_enter:
      - invoke: host.starlark.run
        with: {script: scripts/read.star, inputs: {}}
        bind: {out: out}
`,
		"scripts/read.star":      "def main(ctx):\n    return {\"out\": ctx.fs.read(\"notes.txt\")}\n",
		"scripts/read.star.yaml": "inputs:\noutputs:\n  out: {type: any}\n",
		"flows/i.yaml":           "kind: inspect_cassette\ninteractions:\n  - {op: read, target: notes.txt, exit: 0, out: replayed}\n",
		"flows/rec.yaml":         "kind: recording\nentries:\n  - {state: a, input: go on, intent: {name: go}}\n",
	}
	for i := range 6 {
		tree[fmt.Sprintf("flows/f%d.yaml", i)] = "test_kind: flow\napp: ../app.yaml\nuse_orchestrator: true\ninitial_state: a\nstarlark_inspect_cassette: i.yaml\nrecording: rec.yaml\nturns:\n  - input: go on\n    expect_state: b\n    expect_world: {out: replayed}\n"
	}
	storytest.WriteTree(t, dir, tree)
	r := runSharing(t, dir, 6)
	layers := map[string]int{}
	for k := range r.cassettes.m {
		layers[k.layer]++
	}
	if layers["inspect"] != 1 || layers["recording"] != 1 {
		t.Errorf("the run holds parses %v, want one inspect cassette and one recording", layers)
	}
}

// runSharing runs the n flow fixtures of dir/app.yaml two at a time under
// --sandbox, each of which must pass, and returns the runner.
func runSharing(t *testing.T, dir string, n int) *Runner {
	t.Helper()
	files, _, err := DiscoverUnder("", nil, []string{filepath.Join(dir, "app.yaml")}, "", false, nil)
	if err != nil || len(files) != n {
		t.Fatalf("discover: %v, %d files, want %d", err, len(files), n)
	}
	r := NewRunner(Options{Jobs: 2, Sandbox: true})
	for _, res := range r.Run(context.Background(), files) {
		if res.Fatal != nil || len(res.Failures) > 0 {
			t.Errorf("%s: fatal %v, failures %v", res.Name, res.Fatal, res.Failures)
		}
	}
	return r
}
