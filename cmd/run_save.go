package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"

	"github.com/spf13/cobra"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/flowtest"
)

// addSaveFlags adds run's --save-fixture and --force.
func addSaveFlags(c *cobra.Command, f *runFlags) {
	fl := c.Flags()
	fl.StringVar(&f.saveFixture, "save-fixture", "", "write the run as a flow fixture to `FILE` (inside the project; see kitsoki test)")
	fl.BoolVar(&f.force, "force", false, "with --save-fixture: overwrite an existing fixture")
}

// runSave records a run for --save-fixture.
type runSave struct {
	rec   *flowtest.SaveRecorder
	world map[string]any // the world before turn 0
}

// checkSave checks --save-fixture's file before anything runs.
func checkSave(f *runFlags, ld *compose.Loaded) error {
	if f.saveFixture == "" {
		if f.force {
			return usagef("--force only goes with --save-fixture FILE")
		}
		return nil
	}
	if err := flowtest.CheckSaveTarget(f.saveFixture, ld.Story.ProjectRoot, f.force); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// startSave wraps the run's sink in a recorder (nil without
// --save-fixture), keeping a copy of the world the run starts with.
func startSave(f *runFlags, sink engine.Sink, world engine.World) (engine.Sink, *runSave) {
	if f.saveFixture == "" {
		return sink, nil
	}
	s := &runSave{rec: flowtest.NewSaveRecorder(sink), world: maps.Clone(map[string]any(world))}
	return s.rec, s
}

// finish writes the fixture of a finished run and says where it went.
func (s *runSave) finish(ctx context.Context, out io.Writer, ld *compose.Loaded, f *runFlags, res *engine.Result) error {
	if s == nil || res.Outcome == engine.OutcomeFailed && interruptedBy(ctx) != nil {
		return nil // finishRun says the interrupted run saved nothing
	}
	// under ctx: a Ctrl-C during the save stops it, and the save removes
	// its scratch cassette on the way out
	saved, err := flowtest.SaveFixture(ctx, flowtest.SaveRun{
		Story: ld.Path, World: s.world, Inputs: f.inputs, Result: res, Recorder: s.rec,
	}, flowtest.SaveOptions{File: f.saveFixture, Force: f.force, Root: ld.Story.ProjectRoot,
		Runner: flowtest.Options{Root: f.root, Profile: f.profile, Strict: f.strict, Generator: "kitsoki " + version}})
	if err != nil {
		if i := interruptedBy(ctx); i != nil {
			return interruptedError(i, "run --save-fixture", "the run ended, but the save was cut short; no fixture saved")
		}
		if res.Outcome == engine.OutcomeFailed && f.timeout > 0 && errors.Is(res.Err, context.DeadlineExceeded) {
			return findingf("%v (--timeout %s reached)", err, f.timeout) // as a run without --save-fixture says (runStatus)
		}
		return findingf("%v", err)
	}
	answers := fmt.Sprintf("%d host_handlers stub(s)", saved.Stubs)
	if saved.Cassette != "" {
		answers = fmt.Sprintf("%d answer(s) in %s", saved.Episodes, termsafe.Line(filepath.Base(saved.Cassette)))
	}
	fmt.Fprintf(out, "saved fixture %s: %d turn(s), %s; it passes: kitsoki test %s --flows %s\n",
		termsafe.Line(f.saveFixture), saved.Turns, answers, termsafe.Line(ld.Path), termsafe.Line(saved.Flows))
	if saved.Stale != "" {
		fmt.Fprintf(out, "%s, an earlier save's host cassette, is not named by the new fixture (its answers are host_handlers stubs now): remove it unless another fixture reads it\n",
			termsafe.Line(filepath.Join(filepath.Dir(f.saveFixture), filepath.Base(saved.Stale))))
	}
	return nil
}

// saveOut is where the saved-fixture line goes: stderr under --json.
func saveOut(stdout, stderr io.Writer, f *runFlags) io.Writer {
	if f.jsonOut {
		return stderr
	}
	return stdout
}
