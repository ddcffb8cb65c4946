package flowtest

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"kitsoki/internal/panicked"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/host"
	"kitsoki/pkg/trace"
)

// Options tune a run of fixtures.
type Options struct {
	// Jobs is how many fixtures run at once (0 = number of CPUs).
	Jobs int
	// FailFast stops starting fixtures after the first failure, and skips
	// the remaining turns of a failing fixture.
	FailFast bool
	// TraceDir, when set, receives one JSONL trace per fixture.
	TraceDir string
	// Recording overrides every fixture's recording: (resolved against the
	// fixture's directory, as upstream's --recording).
	Recording string
	// WorkDir is the directory real host handlers work in; "" = a fresh
	// temporary directory for the run when a fixture has real handlers
	// (one per fixture under Sandbox, or when none has), removed
	// afterwards (sharedWorkDir). Fixtures that share one run one at a
	// time, whatever Jobs says.
	WorkDir string
	// Generator names the tool in trace headers.
	Generator string
	// TraceBound bounds each fixture's trace (its MaxBytes and BoundFix;
	// the traces are never fsynced).
	TraceBound trace.Options
	// Timeout bounds each fixture's real running time (0 = none): a story
	// whose real handlers hang (host_bindings) fails instead of blocking CI.
	Timeout time.Duration
	// TimeoutDefault: Timeout is --sandbox's default, not the user's
	// (the failure says how to raise it).
	TimeoutDefault bool
	// AllowMissingRecording skips (does not fail) a fixture whose
	// recording is missing or misses an input (upstream's flag).
	AllowMissingRecording bool
	// Observe keeps what each turn showed (state, world, view, events) in
	// its Result, for Runner.Update (kitsoki test --update).
	Observe bool
	// KitsokiRepo, when set, is where @kitsoki/<name> imports resolve,
	// before $KITSOKI_REPO (flow-format.md §6.8).
	KitsokiRepo string
	// Profile is --profile, applied over the profiles found upward.
	Profile string
	// Sandbox is --sandbox: no process starts, and a host_bindings fixture
	// gets only host.SandboxSafe built-ins (any other call fails it).
	Sandbox bool
	// Observer, when set, is every session's engine.Observer (--cover);
	// it must be safe for concurrent use.
	Observer engine.Observer
	// Root and Trees set the stories' project root (--root) and the trees
	// the operator named, as story.Options does.
	Root  string
	Trees []string
	// Strict runs every session with engine.Options.Strict (--strict).
	Strict bool
	// Hosts are compose.ResolveOptions.Hosts: handlers an embedder adds to
	// a host_bindings fixture's built-ins.
	Hosts map[string]host.Handler
	// Stderr is where the stack of a panic the runner caught goes (nil:
	// os.Stderr); the fixture's failure says so.
	Stderr io.Writer

	// observe, when set, sees the session before the first turn (-1) and
	// after each, with the jobs it submitted (SaveFixture's view of the rig).
	observe func(turn int, state string, world map[string]any, jobs []engine.JobInfo)
}

// Runner runs fixtures; stories are loaded and compiled once each and
// shared by their fixtures.
type Runner struct {
	opts    Options
	mu      sync.Mutex
	stories map[string]*storyEntry
	// cassettes parses each host cassette once for the same bytes.
	cassettes cassetteCache
	// writing, when set (tests), runs in WriteUpdate with each file's
	// path once it is checked inside the project root and before it is
	// read again and written: the moment a process beside the run could
	// swap a directory on its way for a link out.
	writing func(path string)
}

// storyEntry loads a story, and resolves its plugin assembly, once each.
type storyEntry struct {
	load func() (*compose.Loaded, error)
	plan func() (*compose.Plan, error)
}

// NewRunner returns a runner.
func NewRunner(o Options) *Runner {
	return &Runner{opts: o, stories: map[string]*storyEntry{}}
}

// Story loads (once) the story at app.
func (r *Runner) Story(app string) (*compose.Loaded, error) { return r.entry(app).load() }

// Plan resolves (once) the plugin assembly of the story at app as kitsoki
// run does; a malformed profile is a *plugin.ProfileError.
func (r *Runner) Plan(app string) (*compose.Plan, error) { return r.entry(app).plan() }

func (r *Runner) entry(app string) *storyEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.stories[app]; e != nil {
		return e
	}
	e := &storyEntry{load: sync.OnceValues(func() (*compose.Loaded, error) {
		// nothing here prints a story's lint findings: only what can
		// refuse it is checked
		lo := compose.LoadOptions{Compile: engine.CompileOptions{LateHandlers: true}, Runnable: true}
		lo.Story.Root, lo.Story.Trees, lo.Story.KitsokiRepo = r.opts.Root, r.opts.Trees, r.opts.KitsokiRepo
		lo.Story.NoEnv = r.opts.Sandbox // no plugin starts to need them
		return compose.Load(app, lo)
	})}
	e.plan = sync.OnceValues(func() (*compose.Plan, error) {
		ld, err := e.load()
		if err != nil {
			return nil, err
		}
		return compose.ResolveWith(ld, compose.ResolveOptions{Profile: r.opts.Profile, Sandbox: r.opts.Sandbox, MinimalEnv: true, Hosts: r.opts.Hosts})
	})
	r.stories[app] = e
	return e
}

// Preload loads (once each) the stories at apps, -j at a time; Story
// then returns each result. A load that panics panics again in Story, where
// RunFixture reports it for each of the story's fixtures.
func (r *Runner) Preload(apps []string) {
	var g errgroup.Group
	g.SetLimit(parallel(r.opts.Jobs))
	for _, app := range apps {
		g.Go(func() error {
			defer func() { _ = recover() }()
			_, _ = r.Story(app)
			return nil
		})
	}
	_ = g.Wait()
}

// stderr is Options.Stderr, os.Stderr when unset.
func (r *Runner) stderr() io.Writer {
	if r.opts.Stderr != nil {
		return r.opts.Stderr
	}
	return os.Stderr
}

// parallel is a -j value: n, the number of CPUs for 0 (or less).
func parallel(n int) int {
	if n <= 0 {
		return runtime.NumCPU()
	}
	return n
}

// Run runs every fixture of files, -j at a time, and returns the results
// in file order (with FailFast, none of those not started when one fails).
func (r *Runner) Run(ctx context.Context, files []*File) []*Result {
	var fxs []*Fixture
	for _, f := range files {
		fxs = append(fxs, f.Fixtures...)
	}
	results := make([]*Result, len(fxs))
	var stop atomic.Bool
	var g errgroup.Group
	limit := parallel(r.opts.Jobs)
	shared, removeShared := r.sharedWorkDir(fxs)
	defer removeShared()
	if shared != "" {
		// fixtures sharing one working directory run one at a time, in
		// file order, as upstream's share its cwd: a real handler sees the
		// files the earlier fixtures left, and no two write one file at once
		limit = 1
	}
	g.SetLimit(limit)
	// each fixture waits only on an earlier one, already started
	wait, done := cassetteTurns(fxs)
	for i, fx := range fxs {
		if stop.Load() || ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if done[i] != nil {
				defer close(done[i])
			}
			if wait[i] != nil {
				<-wait[i]
			}
			if stop.Load() { // a fixture failed while this one waited for its slot
				return nil
			}
			results[i] = r.runFixture(ctx, fx, shared)
			if r.opts.FailFast && !results[i].Passed() {
				stop.Store(true)
			}
			return nil
		})
	}
	_ = g.Wait()
	return slices.DeleteFunc(results, func(res *Result) bool { return res == nil })
}

// RunFixture runs one fixture in isolation (its own session, clock, registry and trace).
func (r *Runner) RunFixture(ctx context.Context, fx *Fixture) *Result {
	return r.runFixture(ctx, fx, r.opts.WorkDir)
}

// runFixture is RunFixture with its real handlers working in workDir ("":
// a fresh temporary directory of its own).
func (r *Runner) runFixture(ctx context.Context, fx *Fixture, workDir string) (res *Result) {
	start := time.Now()
	res = &Result{Name: fx.Name(), Story: fx.Story, Flow: &FlowResult{File: fx.File}}
	defer func() {
		if p := recover(); p != nil {
			res.Fatal = &Failure{Turn: -1, Pos: fx.Pos, Message: panicked.Logged(r.stderr(), "running fixture "+fx.Name(), "the test runner", p).Error()}
			res.Flow.Passed = false
		}
		res.Duration = time.Since(start)
	}()
	ld, err := r.Story(fx.Story)
	if err != nil {
		res.Fatal = &Failure{Turn: -1, Pos: Pos{File: fx.Story}, Message: err.Error()}
		return res
	}
	if r.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.Timeout)
		defer cancel()
	}
	fr := &fixtureRun{r: r, fx: fx, ld: ld, res: res, sharedWD: workDir}
	fr.run(ctx)
	fr.sandboxVerdict()
	if ctx.Err() != nil && r.opts.Timeout > 0 && res.Fatal == nil {
		msg := fmt.Sprintf("the fixture did not finish within --timeout %s", r.opts.Timeout)
		if r.opts.TimeoutDefault {
			msg += " (--sandbox's default; give a longer --timeout, or --timeout 0 for none)"
		}
		res.Failures = append(res.Failures, Failure{Turn: -1, Pos: fx.Pos, Message: msg})
		res.Flow.Passed = false
	}
	return res
}
