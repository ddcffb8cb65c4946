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
	"kitsoki/pkg/compose"
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
	// Stale is FILE.cassette.yaml when this save needed none but one is
	// there (an earlier save's, under --force): the new fixture does not
	// name it, and it is left for the author to remove.
	Stale string
}

// failedRunError is why a failed run saves nothing, with the run's own
// error (which the save's error replaces on the command line) and, for a
// run stopped while it waited out a state's timeout, what to do instead.
func failedRunError(err error) error {
	if err == nil {
		return errors.New("--save-fixture: the run failed, so there is nothing to save; fix the run first")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		hint := ""
		if strings.Contains(err.Error(), "for the timeout of") {
			hint = "; a run resting in a state with a timeout: after its last --intent waits it out on the real clock, and a run whose timeout fired is not saved: end the --intent inputs before that state, then add its turns and an advance_clock turn to the fixture by hand"
		}
		return fmt.Errorf("--save-fixture: the run was stopped before it ended (%v), so there is nothing to save%s", err, hint)
	}
	return fmt.Errorf("--save-fixture: the run failed, so there is nothing to save; fix the run first: %v", err)
}

// jobAdvance is the clock step of a saved turn that submitted a job, so
// the rig lands its stubbed answer before the turn's expectations.
const jobAdvance = time.Millisecond

// SaveFixture turns a finished scripted run into a flow fixture at
// o.File: its rest after turn 0 as the start, each input as a turn, the
// answers as stubs (or a FILE.cassette.yaml when a call site answered
// differently), and as expectations what two runs of the rig both reach.
// It is written only when it then passes a third run.
func SaveFixture(ctx context.Context, run SaveRun, o SaveOptions) (*Saved, error) {
	if run.Result != nil && run.Result.Outcome == engine.OutcomeFailed {
		return nil, failedRunError(run.Result.Err)
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
	d := &draft{file: file, app: run.Story, facts: facts}
	ro.observe = func(_ int, state string, world map[string]any, jobs []engine.JobInfo) {
		ids := map[string]bool{}
		for _, j := range jobs {
			ids[j.ID] = true
		}
		d.seen = append(d.seen, observed{state: state, world: jsonWorld(world), jobIDs: ids})
	}
	d.runner = NewRunner(ro)
	ld, err := d.runner.Story(run.Story)
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	saved, cassette, err := d.compose(ld, run.Result.Finished(), o)
	if err != nil {
		return nil, err
	}
	var scratch *scratchFile
	if cassette != nil {
		// a scratch copy until the fixture passes, so a refused save
		// leaves an existing cassette as it was
		scratch, err = writeScratch(filepath.Dir(file), cassette)
		if err != nil {
			return nil, fmt.Errorf("--save-fixture: %v", err)
		}
		defer scratch.remove()
		d.sf.HostCassette = filepath.Base(scratch.Name())
	}
	if err := d.settle(ctx); err != nil {
		return nil, err
	}
	if cassette != nil {
		d.sf.HostCassette = filepath.Base(saved.Cassette)
	}
	data, err := d.sf.marshal()
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	if err := land(file, data, saved.Cassette, scratch); err != nil {
		return nil, err
	}
	if pair := cassetteOf(file); cassette == nil {
		if _, err := os.Lstat(pair); err == nil {
			saved.Stale = pair
		}
	}
	return saved, nil
}

// land writes the fixture data to file and, with a scratch cassette,
// puts that in place as cassette: both land or neither does. Every byte
// is on disk before either name changes (the scratch written and synced,
// the fixture through a temporary file), so a full disk fails the fixture
// write with the old fixture and cassette as they were; the scratch's
// rename needs no space, and should it fail all the same, the fixture
// written is taken back (the old one restored, or the new one removed).
func land(file string, data []byte, cassette string, scratch *scratchFile) error {
	var old []byte
	if scratch != nil {
		if err := scratch.ready(); err != nil {
			return fmt.Errorf("--save-fixture: %s: %v", cassette, atomicfile.Cause(err))
		}
		if b, err := safefile.ReadFile(file, maxFixtureBytes); err == nil {
			old = b
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--save-fixture: %s: %v", file, atomicfile.Cause(err))
		}
	}
	if err := atomicfile.Write(file, data, 0o644); err != nil {
		return fmt.Errorf("--save-fixture: %s: %v; nothing saved, the files there are as they were", file, atomicfile.Cause(err))
	}
	if scratch == nil {
		return nil
	}
	err := scratch.place(cassette)
	if err == nil {
		return nil
	}
	undo := os.Remove(file)
	if old != nil {
		undo = atomicfile.Write(file, old, 0o644)
	}
	if undo != nil {
		return fmt.Errorf("--save-fixture: %s: %v; and %s, written before it, could not be taken back (%v): it names a cassette that is not the one it was saved with; save again", cassette, atomicfile.Cause(err), file, atomicfile.Cause(undo))
	}
	return fmt.Errorf("--save-fixture: %s: %v; nothing saved, the files there are as they were", cassette, atomicfile.Cause(err))
}

// cassetteOf is the host cassette a save writes beside file.
func cassetteOf(file string) string {
	return strings.TrimSuffix(file, filepath.Ext(file)) + ".cassette.yaml"
}

// draft is the fixture SaveFixture is writing, and the runner that runs it.
type draft struct {
	file, app string
	facts     *runFacts
	runner    *Runner
	sf        *savedFixture
	seen      []observed
}

// compose builds the draft without expectations, returning the host
// cassette's YAML when the answers need one.
func (d *draft) compose(ld *compose.Loaded, terminal bool, o SaveOptions) (*Saved, []byte, error) {
	base, err := engine.InitWorld(ld.Machine.World, nil, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("--save-fixture: %v", err)
	}
	seedRig(base)
	app := filepath.ToSlash(relTo(filepath.Dir(d.file), d.app))
	d.sf = &savedFixture{
		Header:       []string{"Saved by kitsoki run --save-fixture from a run of " + app + ".", "Expectations are what the run reached; edit them to say what must hold."},
		App:          app,
		InitialState: d.facts.initialState,
		InitialWorld: worldDiff(jsonWorld(base), d.facts.initialWorld),
		Terminal:     terminal,
	}
	for i, in := range d.facts.inputs {
		t := savedTurn{Intent: in.Intent, Slots: jsonWorld(in.Slots)}
		if d.facts.jobTurns[i] {
			t.Advance = jobAdvance
		}
		d.sf.Turns = append(d.sf.Turns, t)
	}
	saved := &Saved{File: d.file, Turns: len(d.facts.inputs), Flows: filepath.ToSlash(relTo(filepath.Dir(d.app), d.file))}
	if stubs, ok := planStubs(d.facts.calls); ok {
		d.sf.Stubs, saved.Stubs = stubs, len(stubs)
		return saved, nil, nil
	}
	saved.Cassette = cassetteOf(d.file)
	if _, err := saveTarget(saved.Cassette, o.Root, o.Force); err != nil {
		return nil, nil, err
	}
	cassette, err := cassetteYAML(ld.Story.App.ID, d.facts.calls)
	if err != nil {
		return nil, nil, fmt.Errorf("--save-fixture: %v", err)
	}
	saved.Episodes = len(d.facts.calls)
	return saved, cassette, nil
}

// settle runs the draft twice to fill in the expectations, then once
// more: it must pass.
func (d *draft) settle(ctx context.Context) error {
	var passes [2][]observed
	for p := range passes {
		if res, err := d.run(ctx); err != nil {
			return err
		} else if res.Fatal != nil {
			return fmt.Errorf("--save-fixture: the saved fixture cannot run: %s", res.Fatal.Detail())
		}
		passes[p] = d.seen
	}
	if err := expectations(d.sf, d.facts, passes[0], passes[1]); err != nil {
		return err
	}
	res, err := d.run(ctx)
	if err != nil || res.Passed() {
		return err
	}
	var msgs []string
	if res.Fatal != nil {
		msgs = append(msgs, res.Fatal.Detail())
	}
	for _, f := range res.Failures {
		msgs = append(msgs, f.Detail())
	}
	return fmt.Errorf("--save-fixture: the fixture does not pass its own run (nothing saved; please report it):\n  %s", strings.Join(msgs, "\n  "))
}

// rigSeeded are the keys every flow rig world starts with, and their
// values: four of story.InjectedWorld, not the list (host_error, the job
// keys and $inbox are written only when a call fails or a job runs;
// session_id and ide the engine seeds at each load).
var rigSeeded = map[string]any{story.WorldSessionCostUSD: 0.0, story.WorldTurnCostUSD: 0.0, story.WorldLastError: "", story.WorldWriteModeScope: ""}

// seedRig adds to world each rigSeeded key it lacks or holds as null
// (conformance storymut-seeded-null-default).
func seedRig(world map[string]any) {
	for k, v := range rigSeeded {
		if w, ok := world[k]; !ok || w == nil {
			world[k] = v
		}
	}
}

// unsaved are world keys a run seeds for itself: never initial_world.
var unsaved = map[string]bool{story.WorldSessionID: true}

// observed is the rig's state and world after a turn (-1: before the first).
type observed struct {
	state string
	world map[string]any
	// jobIDs are the ids of the jobs the rig's session submitted so far
	jobIDs map[string]bool
}

// run parses the draft as it would be written and runs it, d.seen
// collecting what the rig showed.
func (d *draft) run(ctx context.Context) (*Result, error) {
	d.seen = nil
	data, err := d.sf.marshal()
	if err != nil {
		return nil, fmt.Errorf("--save-fixture: %v", err)
	}
	fxs, ds := parse(d.file, data)
	if len(fxs) != 1 {
		var msgs []string
		for _, dg := range ds {
			msgs = append(msgs, dg.Message)
		}
		return nil, fmt.Errorf("--save-fixture: the fixture written does not parse (please report it): %s", strings.Join(msgs, "; "))
	}
	fxs[0].Story = d.app
	results := d.runner.Run(ctx, []*File{{Path: d.file, Story: d.app, Fixtures: fxs}})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("--save-fixture: %w", err)
	}
	if len(results) != 1 {
		return nil, errors.New("--save-fixture: the fixture did not run")
	}
	return results[0], nil
}

// expectations fills each turn's expect_state and expect_world from two
// runs, checking the rig rests where the run did.
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
				continue // differs from run to run: not asserted
			}
			if id, _ := now.(string); a[i+1].jobIDs[id] {
				// a job id (last_job_id, a job_id bind): upstream's are
				// random, so a fixture expecting one fails there
				continue
			}
			changed[k] = now
		}
		if len(changed) > 0 {
			sf.Turns[i].ExpectWorld = changed
		}
	}
	return nil
}

// saveTarget checks a file SaveFixture is about to write (see
// CheckSaveTarget) and returns its absolute path.
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

// worldDiff is the keys of w whose values differ from base, unsaved ones left out.
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
