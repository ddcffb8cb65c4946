package cmd

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/flowtest"
)

// Every corpus story kitsoki run can drive with the intents of one of its
// fixtures is driven so, with --save-fixture; the saved fixture passes
// kitsoki test at once. The run gets the fixture's initial_world as
// --world-file and its stubs (or host_cassette) as --host-cassette, with a
// last catch-all episode answering every other host call as the flow rig
// does (no handler registered): no real handler runs. A fixture the run
// cannot take (it starts elsewhere than the root, a turn that is not an
// intent, Starlark or bindings) is passed over; the stories driven are
// pinned in testdata/save_corpus.golden.
func TestSaveFixtureCorpus(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	src := storytest.Corpus(t, "")
	root := filepath.Join(t.TempDir(), "corpus")
	storytest.CopyTree(t, src, root)
	if err := os.MkdirAll(filepath.Join(root, ".kitsoki"), 0o755); err != nil {
		t.Fatal(err)
	}
	work, scratch := t.TempDir(), t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var driven []string
	for _, e := range entries {
		app := filepath.Join(root, e.Name(), "app.yaml")
		if _, err := os.Stat(app); err != nil {
			continue
		}
		files, _, err := flowtest.DiscoverUnder("", nil, []string{app}, "", true, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if fx := f.Fixtures[0]; driveStory(t, bin, root, work, scratch, e.Name(), fx) {
				driven = append(driven, e.Name()+" "+filepath.Base(fx.File))
				break
			}
		}
	}
	got := strings.Join(driven, "\n") + "\n"
	golden.CheckString(t, filepath.Join("testdata", "save_corpus.golden"), got)
}

// driveStory runs the story with fx's intents and --save-fixture, and
// checks the saved fixture passes; false when the run cannot take fx.
func driveStory(t *testing.T, bin, root, work, scratch, name string, fx *flowtest.Fixture) bool {
	t.Helper()
	args, ok := driveArgs(t, scratch, name, fx)
	if !ok {
		return false
	}
	out := filepath.Join(root, name, "flows", "zz_saved.yaml")
	args = append([]string{"run", filepath.Join(root, name), "--root", root, "--trace", filepath.Join(scratch, name+".jsonl"), "--save-fixture", out, "--timeout", "1m"}, args...)
	stdout, stderr := kitsokiIn(t, bin, work, args...)
	if !strings.Contains(stdout, "saved fixture ") {
		if strings.Contains(stderr, "--save-fixture") && !strings.Contains(stderr, "the run failed") {
			t.Errorf("%s (%s): the run went through but was not saved:\n%s", name, fx.File, stderr)
		}
		t.Logf("%s: %s: not driven:\n%s", name, filepath.Base(fx.File), lastLines(stderr, 2))
		return false
	}
	res, errOut := kitsokiIn(t, bin, work, "test", filepath.Join(root, name), "--root", root, "--flows", "flows/zz_saved.yaml")
	if !strings.Contains(res, "1 passed, 0 failed") {
		saved, _ := os.ReadFile(out)
		t.Errorf("%s: the fixture saved from %s does not pass:\n%s%s\n--- saved:\n%s", name, fx.File, res, errOut, saved)
	}
	return true
}

// kitsokiIn runs the binary in dir (a hang guard, never a timing bound).
func kitsokiIn(t *testing.T, bin, dir string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("kitsoki %s: did not end", strings.Join(args, " "))
	}
	return o.String(), e.String()
}

// driveArgs is fx as run flags: --intent/--slot per turn, --world-file,
// --host-cassette; false when run cannot replay fx.
func driveArgs(t *testing.T, scratch, name string, fx *flowtest.Fixture) ([]string, bool) {
	if fx.StarlarkHTTPCassette != "" || fx.StarlarkInspectCassette != "" || len(fx.HostBindings) > 0 || fx.Mode != "" || len(fx.Turns) == 0 {
		return nil, false
	}
	var args []string
	for _, turn := range fx.Turns {
		if turn.Intent == nil && turn.HasAdvance && !turn.HasInput {
			continue // a clock step: the run waits for its jobs in real time
		}
		if turn.Intent == nil || turn.HasInput || len(turn.WorldOverride) > 0 {
			return nil, false
		}
		args = append(args, "--intent", turn.Intent.Name)
		for _, kv := range turn.Intent.Slots {
			switch kv.Value.(type) {
			case string, int, int64, float64, bool:
				args = append(args, "--slot", fmt.Sprintf("%s=%v", kv.Key, kv.Value))
			default:
				return nil, false
			}
		}
	}
	if !slices.Contains(args, "--intent") {
		return nil, false
	}
	if len(fx.InitialWorld) > 0 {
		w := map[string]any{}
		for _, kv := range fx.InitialWorld {
			w[kv.Key] = kv.Value
		}
		args = append(args, "--world-file", writeYAML(t, filepath.Join(scratch, name+".world.yaml"), w))
	}
	episodes, ok := stubEpisodes(t, fx)
	if !ok {
		return nil, false
	}
	cas := map[string]any{"kind": "host_cassette", "app_id": name, "episodes": episodes}
	return append(args, "--host-cassette", writeYAML(t, filepath.Join(scratch, name+".cassette.yaml"), cas)), true
}

// stubEpisodes are fx's answers as host cassette episodes (each replayed
// any number of times), then the catch-all for every other host call.
func stubEpisodes(t *testing.T, fx *flowtest.Fixture) ([]any, bool) {
	var eps []any
	if fx.HostCassette != "" {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(fx.File), fx.HostCassette))
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Episodes []any `yaml:"episodes"`
		}
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		eps = c.Episodes
	}
	for _, s := range fx.HostHandlers {
		if s.DelayErr != "" || s.RequestClarification != "" || len(s.ByOp) > 0 {
			return nil, false
		}
		for _, id := range slices.Sorted(maps.Keys(s.ByCall)) {
			e := s.ByCall[id]
			eps = append(eps, episode(s.Name, id, e.Data, e.Error, e.InfraError))
		}
		eps = append(eps, episode(s.Name, "", s.Data, s.Error, s.InfraError))
	}
	return append(eps, map[string]any{
		"id": "no-handler", "match": map[string]any{"handler": "host"}, "replay": "any",
		"response": map[string]any{"infra_error": "host: no handler registered (the flow rig's answer)"},
	}), true
}

func episode(handler, call string, data map[string]any, errMsg, infra string) map[string]any {
	match := map[string]any{"handler": handler}
	id := handler
	if call != "" {
		match["call"], id = call, handler+"#"+call
	}
	resp := map[string]any{}
	if data != nil {
		resp["data"] = data
	}
	if errMsg != "" {
		resp["error"] = errMsg
	}
	if infra != "" {
		resp["infra_error"] = infra
	}
	return map[string]any{"id": id, "match": match, "replay": "any", "response": resp}
}

func writeYAML(t *testing.T, path string, v any) string {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
