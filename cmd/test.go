package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/scratchdir"

	"kitsoki/pkg/coverage"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/testrun"
	"kitsoki/pkg/validate"
)

func init() { register("test", newTestCmd) }

type testFlags struct {
	flows       string
	run         string
	jsonOut     string
	junitOut    string
	format      string
	jobs        int
	failFast    bool
	traceDir    string
	traceMaxMiB int64 // --trace-max-mib
	shard       string
	recording   string
	allowMiss   bool
	traceOut    string
	verbose     bool
	upstream    bool // the `test flows APP` spelling
	timeout     time.Duration
	// timeoutSet: --timeout was given (else --sandbox takes sandboxTimeout)
	timeoutSet bool
	workDir    string
	repo       string // --kitsoki-repo
	profile    string
	sandbox    bool
	cover      coverFlags
	root       string // --root
	trees      []string
	strict     bool
	watch      bool // --watch (test_watch.go)
	update     bool // --update
	dryRun     bool // --dry-run (with --update)
}

func newTestCmd() *cobra.Command {
	f := &testFlags{}
	c := &cobra.Command{
		Use:     "test [PATH...]",
		Short:   "Run a story's flow fixtures: stubbed hosts, recorded agents, virtual clock",
		Example: "  kitsoki test examples/ci-triage\n  kitsoki test stories/... -j 4 --junit report.xml\n  kitsoki test . --run 'happy' --format github\n  kitsoki test stories/... --shard 1/3 --json shard1.json\n  kitsoki test examples/ci-triage --update --dry-run",
		Long: `Test runs the flow fixtures (flows/*.yaml, test_kind: flow) of story
directories, app.yaml files or DIR/... (every story below DIR), as validate
takes them. Each fixture starts at its initial_state with its initial_world,
answers host calls from its host_handlers stubs or host_cassette, and checks
the state, world, view, events, host calls, inbox and jobs after each turn.
Time is virtual: advance_clock moves a per-fixture clock, nothing sleeps.

--sandbox (or KITSOKI_SANDBOX=1), for CI on pull requests from strangers:
no process is started (host.run, host providers, hooks, agent plugins), no
network is reached, and only the in-process built-ins run for host_bindings;
a fixture that needs a real handler fails, naming it. Without it, a fixture's
host_bindings run the real built-ins, as the existing engine does. See
SECURITY.md.

--update rewrites in place the expectations that differ from what the run
shows (expect_state, listed expect_world keys, expect_view_matches,
expect_host_calls args and times, expect_error code), keeping the file's
comments and layout, and prints a diff and a summary; --dry-run prints
only. A fixture failing for any other reason is reported and left alone.

The existing engine's spelling works too: kitsoki test flows APP.yaml
[--flows GLOB] [--json FILE] [--fail-fast].

Exit status: 0 every fixture passed, 1 a fixture failed, 2 a fixture or a
story that cannot be loaded (named and positioned), or a usage error. With
--update: 0 when every fixture passes once updated, 1 when one is left
failing (with --dry-run: when one fails as it stands), 2 when a file could
not be written.`,
		RunE: func(c *cobra.Command, args []string) error {
			f.timeoutSet = c.Flags().Changed("timeout")
			return runTests(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args, f)
		},
	}
	addTestFlags(c, f, true)
	addWatchFlag(c, f)
	up := &testFlags{upstream: true}
	flows := &cobra.Command{
		Use:     "flows APP.yaml",
		Short:   "Run one story's flow fixtures (the existing engine's spelling)",
		Example: "  kitsoki test flows app.yaml\n  kitsoki test flows app.yaml --flows 'flows/happy*.yaml' --json report.json --fail-fast",
		Long: `Runs the flow fixtures of APP.yaml, as kitsoki test APP.yaml does, with the
existing engine's default glob: <app dir>/flows/*.yaml, else ./flows/*.yaml,
else <app>-flows/*.yaml. --flows GLOB is relative to the current directory.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			up.timeoutSet = c.Flags().Changed("timeout")
			return runTests(c.Context(), c.OutOrStdout(), c.ErrOrStderr(), args, up)
		},
	}
	addTestFlags(flows, up, false)
	fl := flows.Flags()
	fl.BoolVar(&up.allowMiss, "allow-missing-recording", false, "skip (not fail) a fixture whose recording is missing or misses an input")
	fl.StringVar(&up.traceOut, "trace-out", "", "write the last fixture's JSONL trace to this file")
	fl.BoolVarP(&up.verbose, "v", "v", false, "with --cover, list what the fixtures never reach")
	c.AddCommand(flows, newTestIntentsCmd(), newTestMergeCmd())
	return c
}

func addTestFlags(c *cobra.Command, f *testFlags, full bool) {
	fl := c.Flags()
	fl.StringVar(&f.flows, "flows", "", "fixture glob (default <story>/flows/*.yaml)")
	fl.StringVar(&f.jsonOut, "json", "", "write the JSON report (the existing engine's shape) to `FILE` (- = stdout)")
	fl.BoolVar(&f.failFast, "fail-fast", false, "stop after the first failing fixture (and skip the rest of its turns)")
	fl.StringVar(&f.recording, "recording", "", "recording for input: turns (relative to each fixture's directory)")
	fl.StringVar(&f.run, "run", "", "run only fixtures whose file name matches this `REGEX`")
	fl.StringVar(&f.junitOut, "junit", "", "write a JUnit XML report to `FILE` (- for stdout)")
	fl.StringVar(&f.format, "format", "text", "output: text, or github (workflow annotations at the failing lines)")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "fixtures run in parallel (default: number of CPUs)")
	fl.StringVar(&f.traceDir, "trace-dir", "", "write one JSONL trace per fixture into `DIR`")
	addTraceBoundFlag(c, &f.traceMaxMiB)
	fl.StringVar(&f.shard, "shard", "", "run slice `i/n` of the fixtures (stable by path; merge reports with kitsoki test merge)")
	fl.StringVar(&f.workDir, "workdir", "", "working directory of real host handlers, shared by the fixtures, which then run one at a time (default: a fresh temporary one for the run when a fixture binds real handlers, as upstream's fixtures share its current directory; one per fixture otherwise and under --sandbox)")
	addKitsokiRepoFlag(c, &f.repo)
	addSemanticRoutingFlag(c)
	addRootFlag(c, &f.root)
	fl.DurationVar(&f.timeout, "timeout", 0, "fail a fixture that runs longer than this in real time, e.g. 2m (0 = no limit; default under --sandbox: 5m)")
	fl.StringVar(&f.profile, "profile", "", "operator plugin profile `FILE`, applied over the .kitsoki/plugins.yaml found upward from each story (see kitsoki plugins)")
	fl.BoolVar(&f.sandbox, "sandbox", false, "untrusted code: start no process, reach no network, run only in-process built-ins (also KITSOKI_SANDBOX=1; see SECURITY.md)")
	f.cover.add(c, true)
	if full {
		fl.BoolVarP(&f.verbose, "verbose", "v", false, "with --cover, list what the fixtures never reach, each at its file:line, with the kitsoki run intents that reach each unreached move's state (guards ignored)")
	}
	fl.BoolVar(&f.strict, "strict", false, strictUsage)
	addUpdateFlags(c, f)
}

func runTests(ctx context.Context, stdout, stderr io.Writer, args []string, f *testFlags) error {
	// what an earlier kitsoki test killed outright (SIGKILL) left behind
	scratchdir.Sweep(flowtest.WorkDirPrefix)
	scratchdir.Sweep(testrun.TraceDirPrefix)
	if f.watch {
		return runWatch(ctx, stdout, stderr, args, f)
	}
	p, err := planTests(args, f, stderr)
	if err != nil {
		return err
	}
	var annotations io.Writer
	if f.format == "github" {
		annotations = f.textOut(stdout, stderr) // never into a report on stdout
	}
	notRun := func(ds []diag.Diagnostic) {
		if err := testrun.WriteNotRunJUnit(stdout, f.junitOut, ds); err != nil {
			fmt.Fprintf(stderr, "kitsoki: %v\n", err)
		}
	}
	all, files, err := p.Fixtures(f.root, f.trees, stderr, annotations)
	if nr, ok := errors.AsType[*testrun.NotRunError](err); ok {
		notRun(nr.Diags)
	}
	if err != nil {
		return usagef("%v", err)
	}
	if err := checkOutInside("--trace-dir", f.traceDir); err != nil {
		return err
	}
	traceDir, cleanup, err := testrun.TraceDir(f.traceDir, f.traceOut)
	if err != nil {
		return usagef("%v", err)
	}
	if err := testrun.TraceOutDir(f.traceOut); err != nil {
		cleanup()
		return usagef("%v", err)
	}
	defer cleanup()
	traceBound, err := traceOptions(f.traceMaxMiB)
	if err != nil {
		return err
	}
	opts := f.runnerOptions(p.Sandbox)
	opts.TraceDir, opts.Observe, opts.TraceBound, opts.Hosts = traceDir, f.update, traceBound, addedHosts(ctx)
	var col *coverage.Collector
	if f.cover.on() {
		col = newCollector()
		opts.Observer = col
	}
	runner := flowtest.NewRunner(opts)
	if err := loadTestStories(stderr, runner, files, f.profile, notRun); err != nil {
		return err
	}
	if col != nil {
		addStories(col, runner, all)
	}

	ctx, stop := stopContext(ctx)
	defer stop()
	results := runner.Run(ctx, files)
	if err := testInterrupted(ctx, results, files); err != nil {
		return err
	}
	if f.update {
		return runUpdate(ctx, stdout, stderr, runner, files, results, f.dryRun)
	}

	text := f.textOut(stdout, stderr)
	out := testrun.Outputs{JSON: f.jsonOut, JUnit: f.junitOut, TraceOut: f.traceOut, GitHub: f.format == "github", Upstream: f.upstream}
	if err := out.Write(stdout, results); err != nil {
		return usagef("%v", err)
	}
	out.WriteText(text, results)
	if col != nil {
		var hints *coverage.Hints
		if f.verbose {
			hints = pathHints(all, f.root, f.trees)
		}
		if err := writeCover(stdout, text, &f.cover, col.Profile(), hints, coverage.HTMLOptions{}); err != nil {
			return err
		}
	}
	intentsFailed, err := runStoryIntents(ctx, text, stderr, runner, p.Apps, f)
	if i := interruptedBy(ctx); i != nil {
		return interruptedError(i, "test", "the flow fixtures' reports are written, the intent fixtures' results are not")
	}
	if err != nil {
		return err
	}
	if len(files) == 0 && !f.upstream && !intentsFailed.ran {
		fmt.Fprintln(stderr, p.NoFixtures())
	}
	if err := testExit(results); err != nil || !intentsFailed.failed {
		return err
	}
	return silentExit(exitFinding)
}

// textOut is where the run's text (and annotations) go: stdout, unless a
// report or profile is written there (-), then stderr.
func (f *testFlags) textOut(stdout, stderr io.Writer) io.Writer {
	if f.jsonOut == "-" || f.junitOut == "-" || f.cover.profile == "-" {
		return stderr
	}
	return stdout
}

// runnerOptions are the flow runner's options the flags set; under
// --sandbox, --timeout not given is sandboxTimeout.
func (f *testFlags) runnerOptions(sandbox bool) flowtest.Options {
	o := flowtest.Options{Jobs: f.jobs, FailFast: f.failFast, Recording: f.recording,
		Generator: "kitsoki " + version, AllowMissingRecording: f.allowMiss, Timeout: f.timeout, WorkDir: f.workDir, KitsokiRepo: f.repo,
		Profile: f.profile, Sandbox: sandbox, Root: f.root, Trees: f.trees, Strict: f.strict}
	if sandbox && !f.timeoutSet {
		o.Timeout, o.TimeoutDefault = sandboxTimeout, true
	}
	return o
}

// planTests checks the flags and expands the arguments into stories and
// the fixture glob (setting f.trees).
func planTests(args []string, f *testFlags, stderr io.Writer) (*testrun.Plan, error) {
	p := &testrun.Plan{Upstream: f.upstream}
	if err := checkTestFlags(f, p); err != nil {
		return nil, err
	}
	if err := f.cover.check(); err != nil {
		return nil, err
	}
	if f.cover.format != "" && f.cover.profile == "" {
		return nil, usagef("--cover-format %s: name the profile to write with --coverprofile FILE", f.cover.format)
	}
	if err := testrun.OneStdout("--json", f.jsonOut, "--junit", f.junitOut, "--coverprofile", f.cover.profile); err != nil {
		return nil, usagef("%v", err)
	}
	var err error
	if p.Sandbox, err = plugin.SandboxMode(f.sandbox, os.Getenv(plugin.SandboxEnv)); err != nil {
		return nil, usagef("%v", err)
	}
	if err := p.SetApps(args, f.flows, warnLine(stderr)); err != nil {
		return nil, usagef("%v", err)
	}
	f.trees = validate.Trees(args)
	if f.upstream {
		f.trees = append(f.trees, validate.SiblingTrees(p.Apps)...)
	}
	return p, nil
}

// checkTestFlags rejects flag values that cannot work, keeping in p the
// compiled --run pattern and the parsed --shard i/n.
func checkTestFlags(f *testFlags, p *testrun.Plan) (err error) {
	if f.format != "text" && f.format != "github" {
		return usagef("--format %q: expected text or github", f.format)
	}
	if err := checkUpdateFlags(f); err != nil {
		return err
	}
	switch {
	case f.timeout < 0:
		return usagef("--timeout %s: must not be negative", f.timeout)
	case f.jobs < 0:
		return usagef("-j %d: must be 0 (one per CPU) or more", f.jobs)
	}
	if f.run != "" {
		if p.RunRE, err = regexp.Compile(f.run); err != nil {
			return usagef("--run %q: %v", f.run, err)
		}
	}
	if p.Shard, p.Shards, err = parseShard(f.shard); err != nil {
		return err
	}
	if err := checkOutInside("--trace-out", f.traceOut); err != nil {
		return err // its directory is made before the run (testrun.TraceOutDir)
	}
	return checkOutDirs("--json", f.jsonOut, "--junit", f.junitOut)
}

// sandboxTimeout is --timeout under --sandbox when none is given: a
// stranger's story may keep each evaluation of a guard or value within
// its bounds (docs/compat/hardening.md) and still cost much of a second
// of CPU, on every arm of every turn; sandboxed fixtures start no
// process, so the story's own work is all the time they take.
const sandboxTimeout = 5 * time.Minute

// loadTestStories loads the stories before anything runs (testrun.Load)
// and reports one that cannot run as a usage error, with its diagnostics,
// which notRun (when set) also gets.
func loadTestStories(stderr io.Writer, runner *flowtest.Runner, files []*flowtest.File, profile string, notRun func([]diag.Diagnostic)) error {
	le, ok := errors.AsType[*testrun.LoadError](testrun.Load(stderr, runner, files))
	switch {
	case !ok:
		return nil
	case le.Assembly:
		return profileUsageError(stderr, profile, le.Err)
	}
	msg, ds, ok := notLoaded(stderr, le.App, le.Err)
	if !ok {
		msg = le.Error()
		ds = []diag.Diagnostic{{File: le.App, Severity: diag.Error, Message: msg}}
	}
	if notRun != nil {
		notRun(ds)
	}
	return usagef("%s", msg)
}

// testInterrupted is the exit error of a run Ctrl-C or SIGTERM stopped
// while fixtures ran (nil when none did): the fixtures under way were cut
// short, their temporary directories and processes gone with them, so no
// report (--json, --junit, --coverprofile, --update) is written from them.
func testInterrupted(ctx context.Context, results []*flowtest.Result, files []*flowtest.File) error {
	i := interruptedBy(ctx)
	if i == nil {
		return nil
	}
	total := 0
	for _, f := range files {
		total += len(f.Fixtures)
	}
	return interruptedError(i, "test", fmt.Sprintf("%d of %d flow fixture(s) started, none reported; no report or fixture written", len(results), total))
}

// testExit is the exit status of the results: 2 when a fixture could not
// run, 1 when one failed (a skipped one does not), else success.
func testExit(results []*flowtest.Result) error {
	switch flowtest.OutcomeOf(results) {
	case flowtest.SomeBroken:
		return silentExit(exitUsageEnv)
	case flowtest.SomeFailed:
		return silentExit(exitFinding)
	}
	return nil
}
