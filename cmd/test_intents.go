package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/testrun"
)

type intentFlags struct {
	intents      string
	harness      string
	agent        string
	profile      string
	recording    string
	runs         int
	dryRun       bool
	maxCost      float64
	only         string
	baseline     string
	updateBase   bool
	regressionAt float64
	jsonOut      string
	junitOut     string
	jobs         int
	repo         string
	// runner is the flow run's runner when kitsoki test runs a story's
	// intents after its flows: the story it loaded and compiled is reused.
	runner *flowtest.Runner
	// root is kitsoki test's --root when it runs a story's intents: the
	// project root the intents and recording are read through.
	root  string
	trees []string
}

func newTestIntentsCmd() *cobra.Command {
	f := &intentFlags{}
	c := &cobra.Command{
		Use:   "intents APP.yaml",
		Short: "Measure how reliably free text routes to the right intent in each state",
		Example: "  kitsoki test intents stories/cloak/app.yaml\n" +
			"  kitsoki test intents app.yaml --harness live --agent agent.router --runs 5 --max-cost 0.50\n" +
			"  kitsoki test intents app.yaml --baseline intents.baseline.json --update-baseline",
		Long: `Intents runs the routing fixtures (intents/*.yaml, test_kind: intents) of a
story: each input is routed runs times and judged against the fixture (the
expected intent and slots, expect_failure codes, or expect_fallthrough); a
fixture passes when its pass rate reaches min_pass_rate.

Harnesses: static (default) answers from recording.yaml, no model is asked
and a missing entry is skipped; live routes through one agent plugin of the
story (--agent ALIAS: a subprocess plugin, mcp_http, claude_cli or
builtin.local_llm), to measure a backend before trusting it.

Exit status: 0 every fixture at or above its threshold and no regression,
1 a fixture below it, a regression or --max-cost reached, 2 a fixture,
recording or story that cannot be read.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runIntents(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args[0], f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.intents, "intents", "", "intent fixture `GLOB` (default <app dir>/intents/*.yaml)")
	fl.StringVar(&f.harness, "harness", "static", "static (recording) or live (an agent plugin of the story, --agent)")
	fl.StringVar(&f.agent, "agent", "", "agent `ALIAS` the live harness routes through (e.g. agent.router)")
	fl.StringVar(&f.profile, "profile", "", "plugin profile for the live harness (default .kitsoki/plugins.yaml found upward)")
	fl.StringVar(&f.recording, "recording", "", "recording for the static harness (default <app dir>/recording.yaml)")
	fl.IntVar(&f.runs, "runs", 0, "runs per input for every fixture (0 = the fixtures' own)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print the plan (fixtures, inputs, calls) and exit 0")
	fl.Float64Var(&f.maxCost, "max-cost", 2.0, "stop a live run once its agents report this much cost in USD (0 = no limit)")
	fl.StringVar(&f.only, "only", "", "run only the fixtures of this `STATE` (exact match)")
	fl.StringVar(&f.baseline, "baseline", "", "baseline JSON `FILE` of earlier pass rates, for regression tracking")
	fl.BoolVar(&f.updateBase, "update-baseline", false, "write this run's pass rates to --baseline")
	fl.Float64Var(&f.regressionAt, "fail-regression-at", 0.05, "fail when a fixture's pass rate drops more than this below the baseline")
	fl.StringVar(&f.jsonOut, "json", "", "write the JSON report (the existing engine's shape) to `FILE` (- = stdout)")
	fl.StringVar(&f.junitOut, "junit", "", "write a JUnit XML report to `FILE` (- for stdout)")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "inputs routed in parallel (default: number of CPUs)")
	addKitsokiRepoFlag(c, &f.repo)
	return c
}

// checkIntentFlags rejects flag values that cannot work.
func checkIntentFlags(f *intentFlags) error {
	switch {
	case f.harness != "static" && f.harness != "live":
		return usagef("--harness %q: expected static or live", f.harness)
	case f.harness == "live" && f.agent == "":
		return usagef("--harness live needs --agent ALIAS: the agent plugin of the story to route through")
	case f.runs < 0:
		return usagef("--runs %d: must be 0 (the fixtures' own) or more", f.runs)
	case f.maxCost < 0:
		return usagef("--max-cost %g: must be 0 (no limit) or more", f.maxCost)
	case f.jobs < 0:
		return usagef("-j %d: must be 0 (one per CPU) or more", f.jobs)
	case f.updateBase && f.baseline == "":
		return usagef("--update-baseline needs --baseline FILE: where to write the pass rates")
	case f.regressionAt < 0:
		return usagef("--fail-regression-at %g: must be 0 or more", f.regressionAt)
	}
	if err := testrun.OneStdout("--json", f.jsonOut, "--junit", f.junitOut); err != nil {
		return usagef("%v", err)
	}
	// the baseline is read, and with --update-baseline replaced, there
	if err := checkOutInside("--baseline", f.baseline); err != nil {
		return err
	}
	return checkOutDirs("--json", f.jsonOut, "--junit", f.junitOut)
}

func runIntents(ctx context.Context, stdout, stderr io.Writer, app string, f *intentFlags) error {
	if err := checkIntentFlags(f); err != nil {
		return err
	}
	if f.harness == "live" {
		if err := refuseInSandbox("test intents --harness live"); err != nil {
			return err
		}
	}
	app, err := storyManifest(app)
	if err != nil {
		return err
	}
	// upstream's order, which decides the error a run with several
	// broken inputs names (--dry-run too): the static harness's
	// recording, the story, then the fixtures
	var static flowtest.Harness
	if f.harness == "static" {
		if static, err = staticHarness(app, f); err != nil {
			return err
		}
	}
	runner := f.runner
	if runner == nil {
		runner = flowtest.NewRunner(flowtest.Options{KitsokiRepo: f.repo, Profile: f.profile})
	}
	if err := loadTestStories(stderr, runner, []*flowtest.File{{Story: app}}, f.profile, nil); err != nil {
		return err
	}
	ld, _ := runner.Story(app)
	if ld.Machine == nil {
		return usagef("%s: the story does not compile: %v", app, ld.CompileErr)
	}
	glob := cmp.Or(f.intents, flowtest.IntentsGlob(app))
	suites, err := flowtest.LoadIntents(flowtest.StoryRoot(app, f.root, f.trees...), glob, f.only)
	if err != nil {
		return usagef("%v", err)
	}
	if f.dryRun {
		flowtest.WriteIntentsPlan(stdout, suites, f.runs, f.harness == "live", f.maxCost)
		return nil
	}
	o := flowtest.IntentOptions{Machine: ld.Machine, Jobs: f.jobs, Runs: f.runs, MaxCost: f.maxCost, HarnessType: f.harness, Harness: static}
	if f.harness == "live" {
		h, closeH, err := flowtest.LiveHarness(ld, f.profile, f.agent, compose.BuildOptions{ClaudeSubmit: claudeSubmitCommand()})
		if err != nil {
			return usagef("%v", err)
		}
		defer closeH()
		o.Harness, o.AgentBackend = h, f.agent
	}
	rep := flowtest.RunIntents(ctx, suites, o)
	if f.baseline != "" {
		if err := flowtest.TrackBaseline(rep, testrun.OutRoot(), f.baseline, f.regressionAt, f.updateBase, &ld.Story.App, time.Now()); err != nil {
			return usagef("%v", err)
		}
	}
	marshal := func() ([]byte, error) { return flowtest.MarshalIntentReport(rep) }
	junit := func(w io.Writer) error { return flowtest.WriteIntentsJUnit(w, rep) }
	if err := testrun.WriteFiles(stdout, f.jsonOut, f.junitOut, marshal, junit); err != nil {
		return usagef("%v", err)
	}
	text := stdout
	if f.jsonOut == "-" || f.junitOut == "-" {
		text = stderr
	}
	flowtest.WriteIntentsText(text, rep)
	if rep.Failed() {
		return silentExit(exitFinding)
	}
	return nil
}

// staticHarness reads the static harness's recording (--recording, else
// <app dir>/recording.yaml).
func staticHarness(app string, f *intentFlags) (flowtest.Harness, error) {
	rec := cmp.Or(f.recording, flowtest.DefaultRecording(app))
	h, err := flowtest.NewStaticHarness(flowtest.StoryRoot(app, f.root, f.trees...), rec)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return h, nil
}

// storyIntents is what the intents part of a plain `kitsoki test` did.
type storyIntents struct{ ran, failed bool }

// runStoryIntents runs the static routing pass rates of every story with
// a recording.yaml and intents/*.yaml after its flows (not under `test
// flows`, --run or --shard).
func runStoryIntents(ctx context.Context, text, stderr io.Writer, runner *flowtest.Runner, apps []string, tf *testFlags) (storyIntents, error) {
	var out storyIntents
	if tf.upstream || tf.run != "" || tf.shard != "" {
		return out, nil
	}
	for _, app := range apps {
		if !flowtest.HasStaticIntents(app) {
			continue
		}
		fmt.Fprintf(text, "\nintents %s (static harness, recording.yaml):\n", app)
		err := runIntents(ctx, text, stderr, app, &intentFlags{harness: "static", maxCost: 0, regressionAt: 0.05, jobs: tf.jobs, repo: tf.repo, runner: runner, root: tf.root, trees: tf.trees})
		out.ran = true
		if ee, ok := errors.AsType[*exitError](err); ok && ee.err == nil && ee.code == exitFinding {
			out.failed = true
			continue
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
