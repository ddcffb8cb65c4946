package flowtest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/jsonvalue"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/story"
)

// SaveOptions say where and how [SaveFixture] writes.
type SaveOptions struct {
	// File is the fixture to write (.yaml or .yml).
	File string
	// Force overwrites an existing File (and its cassette).
	Force bool
	// Root is the story's project root: File must lie inside it.
	Root string
	// Runner is how `kitsoki test` would run the fixture (Root, Trees,
	// KitsokiRepo, Profile, Strict): the saved fixture is run with it
	// before it is written.
	Runner Options
}

// Saved is what SaveFixture wrote.
type Saved struct {
	File     string
	Cassette string // "" when the answers are host_handlers stubs
	Turns    int
	Stubs    int // host_handlers entries
	Episodes int // cassette episodes
	// Flows is the fixture relative to the story's directory: what
	// `kitsoki test STORY --flows` takes.
	Flows string
}

// jobAdvance is the clock step a saved turn that submitted a background
// job takes, so that the flow rig applies the job's stubbed answer before
// the turn's expectations (the run waited for it in real time).
const jobAdvance = time.Millisecond

// SaveFixture turns a finished scripted run into a flow fixture at
// o.File: the state and world the run rested in after turn 0 as
// initial_state and initial_world, each consumed input as a turn, the host
// and agent answers as host_handlers stubs (or, when one call site
// answered differently on different calls, a host cassette beside the
// fixture, FILE.cassette.yaml), and as expectations the state each turn
// reached and the world keys it changed. The expectations are read from
// the flow rig itself (run twice: a key whose value differs between the
// two runs, such as a job id, is not asserted), the fixture is run once
// more and written only when it passes; a run the rig does not replay to
// the same states is refused, naming the turn.
func SaveFixture(ctx context.Context, run SaveRun, o SaveOptions) (*Saved, error) {
	if run.Result != nil && run.Result.Outcome == engine.OutcomeFailed {
		return nil, fmt.Errorf("--save-fixture: the run failed, so there is nothing to save: fix the run first")
	}
	file, err := saveTarget(o.File, o.Root, o.Force)
	if err != nil {
		return nil, err
	}
	run.Story = story.ManifestPath(run.Story)
	facts, err := readRun(run)
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	if len(facts.inputs) == 0 {
		return nil, fmt.Errorf("--save-fixture: the run consumed no --intent, so there is no turn to save: a fixture starts where the run rested after its start; pass the --intent inputs to record")
	}
	if facts.lateTurns {
		return nil, fmt.Errorf("--save-fixture: the run went on after its last --intent (a state's timeout: fired), which a saved fixture does not replay: end the run with an --intent that rests where you want the fixture to stop, or add an advance_clock turn to the fixture by hand")
	}
	ro := o.Runner
	ro.Jobs = 1
	var seen []observed
	ro.observe = func(turn int, state string, world map[string]any) {
		seen = append(seen, observed{turn: turn, state: state, world: jsonWorld(world)})
	}
	runner := NewRunner(ro)
	ld, err := runner.Story(run.Story)
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	base, err := engine.InitWorld(ld.Machine.World, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	for k, v := range rigSeeded {
		if _, ok := base[k]; !ok {
			base[k] = v
		}
	}

	sf := &savedFixture{
		Header: []string{
			fmt.Sprintf("Saved by kitsoki run --save-fixture from a run of %s.", filepath.ToSlash(relTo(filepath.Dir(file), run.Story))),
			"Expectations are what the run reached; edit them to say what must hold.",
		},
		App:          filepath.ToSlash(relTo(filepath.Dir(file), run.Story)),
		InitialState: facts.initialState,
		InitialWorld: worldDiff(jsonWorld(base), facts.initialWorld),
		Terminal:     run.Result.Finished(),
	}
	stubs, stubbed := planStubs(facts.calls)
	saved := &Saved{File: file, Turns: len(facts.inputs), Flows: filepath.ToSlash(relTo(filepath.Dir(run.Story), file))}
	var cassette []byte
	if stubbed {
		sf.Stubs, saved.Stubs = stubs, len(stubs)
	} else {
		saved.Cassette = strings.TrimSuffix(file, filepath.Ext(file)) + ".cassette.yaml"
		if _, err := saveTarget(saved.Cassette, o.Root, o.Force); err != nil {
			return nil, err
		}
		sf.HostCassette = filepath.Base(saved.Cassette)
		if cassette, err = cassetteYAML(ld.Story.App.ID, facts.calls); err != nil {
			return nil, fmt.Errorf("--save-fixture: %v", err)
		}
		saved.Episodes = len(facts.calls)
	}
	for i, in := range facts.inputs {
		t := savedTurn{Intent: in.Intent, Slots: jsonWorld(in.Slots)}
		if facts.jobTurns[i] {
			t.Advance = jobAdvance
		}
		sf.Turns = append(sf.Turns, t)
	}

	if cassette != nil {
		// The rig reads the cassette the fixture names, beside it: a
		// scratch copy until the fixture passes, so a refused save leaves
		// an existing cassette as it was.
		scratch, err := os.CreateTemp(filepath.Dir(file), ".save-fixture-*.cassette.yaml")
		if err != nil {
			return nil, fmt.Errorf("--save-fixture: %v", err)
		}
		defer os.Remove(scratch.Name())
		_, err = scratch.Write(cassette)
		if cerr := scratch.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("--save-fixture: %v", err)
		}
		sf.HostCassette = filepath.Base(scratch.Name())
	}

	// Two runs of the draft: what the rig reaches, and which world values
	// it reaches every time.
	var passes [2][]observed
	for p := range passes {
		seen = nil
		if res, err := runDraft(ctx, runner, sf, file, run.Story); err != nil {
			return nil, err
		} else if res.Fatal != nil {
			return nil, fmt.Errorf("--save-fixture: the saved fixture cannot run: %s", res.Fatal.Detail())
		}
		passes[p] = seen
	}
	if err := expectations(sf, facts, passes[0], passes[1]); err != nil {
		return nil, err
	}
	seen = nil
	res, err := runDraft(ctx, runner, sf, file, run.Story)
	if err != nil {
		return nil, err
	}
	if !res.Passed() {
		var msgs []string
		if res.Fatal != nil {
			msgs = append(msgs, res.Fatal.Detail())
		}
		for _, f := range res.Failures {
			msgs = append(msgs, f.Detail())
		}
		return nil, fmt.Errorf("--save-fixture: the fixture does not pass its own run (nothing saved; please report it):\n  %s", strings.Join(msgs, "\n  "))
	}
	if cassette != nil {
		sf.HostCassette = filepath.Base(saved.Cassette)
		if err := atomicfile.Write(saved.Cassette, cassette, 0o644); err != nil {
			return nil, fmt.Errorf("--save-fixture: %s: %v", saved.Cassette, atomicfile.Cause(err))
		}
	}
	data, err := sf.marshal()
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	if err := atomicfile.Write(file, data, 0o644); err != nil {
		return nil, fmt.Errorf("--save-fixture: %s: %v", file, atomicfile.Cause(err))
	}
	return saved, nil
}

// rigSeeded are the keys every flow rig world starts with
// (initialWorld).
var rigSeeded = map[string]any{"session_cost_usd": 0.0, "turn_cost_usd": 0.0, "last_error": "", "write_mode_scope": ""}

// unsaved are world keys a run seeds for itself: never initial_world.
var unsaved = map[string]bool{"session_id": true}

// observed is the rig's state and world before the first turn (-1) or
// after a turn.
type observed struct {
	turn  int
	state string
	world map[string]any
}

// runDraft parses the fixture as it would be written and runs it.
func runDraft(ctx context.Context, runner *Runner, sf *savedFixture, file, app string) (*Result, error) {
	data, err := sf.marshal()
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	fxs, ds := parse(file, data)
	if len(fxs) != 1 {
		var msgs []string
		for _, d := range ds {
			msgs = append(msgs, d.Message)
		}
		return nil, fmt.Errorf("--save-fixture: the fixture written does not parse (please report it): %s", strings.Join(msgs, "; "))
	}
	fxs[0].Story = app
	results := runner.Run(ctx, []*File{{Path: file, Story: app, Fixtures: fxs}})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("--save-fixture: %w", err)
	}
	if len(results) != 1 {
		return nil, errors.New("--save-fixture: the fixture did not run")
	}
	return results[0], nil
}

// expectations fills each turn's expect_state and expect_world from two
// runs of the draft, and checks the rig rests where the run did.
func expectations(sf *savedFixture, facts *runFacts, a, b []observed) error {
	if len(a) != len(sf.Turns)+1 || len(b) != len(a) {
		return fmt.Errorf("--save-fixture: the flow rig ran %d of %d turns", max(len(a), 1)-1, len(sf.Turns))
	}
	for i := range sf.Turns {
		got, want := a[i+1].state, facts.states[i]
		if got != want {
			return fmt.Errorf("--save-fixture: turn %d (intent %s): the run rested in %q but the fixture replays to %q; a fixture cannot stand for this run (is a call's answer read outside its binds?)", i+1, sf.Turns[i].Intent, want, got)
		}
		sf.Turns[i].ExpectState = got
		changed := map[string]any{}
		keys := slices.AppendSeq(slices.Collect(maps.Keys(a[i].world)), maps.Keys(a[i+1].world))
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) { // the keys of either world, once each
			now, had := a[i+1].world[k], a[i].world[k]
			if equal(now, had) {
				continue
			}
			if !equal(now, b[i+1].world[k]) {
				continue // differs from run to run (a job id): not asserted
			}
			changed[k] = now
		}
		if len(changed) > 0 {
			sf.Turns[i].ExpectWorld = changed
		}
	}
	return nil
}

// saveTarget checks a file SaveFixture is about to write: a YAML name,
// inside the project root, in an existing directory, not there yet unless
// force. It returns the absolute path.
func saveTarget(p, root string, force bool) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("--save-fixture %s: %v", p, err)
	}
	if ext := filepath.Ext(abs); ext != ".yaml" && ext != ".yml" {
		return "", fmt.Errorf("--save-fixture %s: a fixture is a .yaml file (kitsoki test reads flows/*.yaml)", p)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", fmt.Errorf("--save-fixture %s: directory %s does not exist; create it first", p, filepath.Dir(p))
	}
	if root != "" {
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			realRoot = root
		}
		if !safefile.Inside(realRoot, dir) {
			return "", fmt.Errorf("--save-fixture %s: outside the story's project root %s; save it inside the project (e.g. in the story's flows/)", p, root)
		}
	}
	target := filepath.Join(dir, filepath.Base(abs))
	if st, err := os.Lstat(target); err == nil {
		switch {
		case !st.Mode().IsRegular():
			return "", fmt.Errorf("--save-fixture %s: exists and is not a regular file; choose another name", p)
		case !force:
			return "", fmt.Errorf("--save-fixture %s: the file exists; pass --force to overwrite it", p)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("--save-fixture %s: %v", p, err)
	}
	return target, nil
}

// relTo is p relative to dir (both resolved), or p's absolute path.
func relTo(dir, p string) string {
	abs, real := realPath(p), realPath(dir)
	if rel, err := filepath.Rel(real, abs); err == nil {
		return rel
	}
	return abs
}

// realPath is p absolute with its symlinks resolved, as far as they can be.
func realPath(p string) string {
	abs := absOf(p)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// worldDiff is the keys of w whose values differ from base (the seeded
// ones left out).
func worldDiff(base, w map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range w {
		if b, had := base[k]; !unsaved[k] && (!had || !equal(b, v)) {
			out[k] = v
		}
	}
	return out
}

// jsonWorld is m in JSON shapes (numbers float64); nil for nil (JSON null).
func jsonWorld(m map[string]any) map[string]any {
	out, _ := jsonvalue.RoundTrip(m).(map[string]any)
	return out
}

// CheckSaveTarget is SaveFixture's check of its file, for a caller to make
// before the run: a name kitsoki test reads, inside root, in an existing
// directory, new unless force.
func CheckSaveTarget(file, root string, force bool) error {
	_, err := saveTarget(file, root, force)
	return err
}
