package eval

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"kitsoki/internal/agentcall"
	"kitsoki/internal/jsonvalue"
	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"

	"golang.org/x/sync/errgroup"
)

// RunOptions configure Run.
type RunOptions struct {
	// Concurrency is how many calls run at once (0 = runtime.NumCPU()).
	// Cassette runs are sequential so episode matching is deterministic.
	Concurrency int
	// Cassette, when set, answers every candidate and the judge from this
	// host_cassette file; latency is the episode's duration_ms.
	Cassette string
	// Shard/Shards run the jobs whose index i satisfies i % Shards ==
	// Shard-1 (Shard is 1-based). Zero Shards runs everything.
	Shard, Shards int
	// InProcess serves builtin.inprocess aliases (and may replace any alias)
	// with compiled-in agents, in every candidate's registry.
	InProcess map[string]agent.Agent
	// Builders add transport builders by plugin type (builtin.local_llm).
	Builders map[string]agent.Builder
	// Timeout is the hard deadline of one call (0 = agent.DefaultTimeout).
	Timeout time.Duration
	// Retries is how many times a call failing with plugin_crash or
	// transport_error is retried (retry_rate counts calls that needed one).
	Retries int
	// Progress, when set, is called after each call with done and total.
	// Calls come from one goroutine.
	Progress func(done, total int)
	// Now stamps generated_at (nil = time.Now).
	Now func() time.Time
	// Clock times each call's dispatch (nil = time.Now), so a test can
	// make a call slow without waiting.
	Clock func() time.Time
	// Sink receives every agent.call.* event (nil discards).
	Sink agent.Sink
	// MaxFailureSamples caps failure_samples (0 = 50).
	MaxFailureSamples int
	// Plan is the operator's plugin assembly (compose.Resolve) every
	// candidate and the judge are built from; nil resolves the default.
	Plan *compose.Plan
	// ClaudeSubmit is the command of kitsoki's submit MCP server (nil =
	// the plain-text answer path only).
	ClaudeSubmit []string
}

// matrix builds the eval's registries: one hook chain for every call, a
// registry per candidate (compose.Matrix).
func (o RunOptions) matrix(v *Validation, cas *agent.Cassette, compiler *schema.Compiler) (*compose.Matrix, error) {
	plan := o.Plan
	if plan == nil {
		var err error
		if plan, err = compose.Resolve(v.Loaded, ""); err != nil {
			return nil, fmt.Errorf("plugin profile: %w", err)
		}
	}
	return plan.NewMatrix(compose.DispatchOptions{BuildOptions: compose.BuildOptions{Cassette: cas, CallTimeout: o.Timeout, ClaudeSubmit: o.ClaudeSubmit},
		AgentSink: o.Sink, Builders: o.Builders, Schemas: compiler, InProcess: o.InProcess}), nil
}

// job is one candidate × example × repeat.
type job struct {
	cand, ex, rep int
}

// Run measures every candidate of a validated dataset and returns the
// report, unwritten. It stops at the first environment error, or with
// ctx's cause.
func Run(ctx context.Context, v *Validation, opts RunOptions) (*Report, error) {
	r, err := planRun(v, opts)
	if err != nil {
		return nil, err
	}
	defer r.close()
	if err := r.open(); err != nil {
		return nil, err
	}
	start := time.Now()
	recs, err := r.dispatch(ctx)
	if err != nil {
		return nil, err
	}
	return r.report(recs, start), nil
}

// evalRun is one Run: the plan (specs, rendered examples, jobs) and the
// registries serving it.
type evalRun struct {
	v     *Validation
	d     *Dataset
	st    *story.Story
	cs    *CallSite
	opts  RunOptions
	cas   *agent.Cassette
	specs []CandidateSpec
	rnd   *exampleRenderer
	rend  []renderedExample
	jobs  []job
	total int
	conc  int
	sch   *schema.Schema
	// compiler compiles the call site's schema and serves the matrix.
	compiler *schema.Compiler
	mx       *compose.Matrix
	regs     []*agent.Registry
	judge    *judgeRunner
	// slots holds one slot per subprocess candidate (see open).
	slots []chan struct{}
}

// renderedExample is one example's prompt and with:, rendered once.
type renderedExample struct {
	prompt string
	with   map[string]any
}

// maxJobs bounds the calls one dataset's matrix makes: every job is
// listed before the first is dispatched.
const maxJobs = 1_000_000

// planRun checks the options and the dataset and renders every example,
// before anything is built or dispatched.
func planRun(v *Validation, opts RunOptions) (*evalRun, error) {
	if !v.OK() {
		return nil, fmt.Errorf("%s: eval validation failed", v.Dataset.Path)
	}
	r := &evalRun{v: v, d: v.Dataset, st: v.Story, cs: v.CallSite, opts: opts}
	if opts.Cassette != "" {
		c, err := agent.LoadCassette(opts.Cassette)
		if err != nil {
			return nil, err
		}
		r.cas = c
		r.opts.Concurrency = 1
	}
	specs, err := expandMatrix(r.d, r.st, r.cs, r.cas != nil)
	if err != nil {
		return nil, err
	}
	r.specs = specs
	if opts.Shards > 0 && (opts.Shard < 1 || opts.Shard > opts.Shards) {
		return nil, fmt.Errorf("shard %d/%d: the shard index must be between 1 and %d", opts.Shard, opts.Shards, opts.Shards)
	}
	// Render every example's prompt and with: once, before anything is
	// dispatched.
	r.rnd = newRenderer(r.st, r.cs)
	r.rend = make([]renderedExample, len(r.d.Examples))
	for i, ex := range r.d.Examples {
		if r.rend[i].prompt, r.rend[i].with, err = r.rnd.Render(ex.Args); err != nil {
			return nil, fmt.Errorf("example %q: %w", ex.Name, err)
		}
	}
	if total := matrixJobs(len(r.specs), len(r.d.Examples), r.d.repeat()); total > maxJobs {
		return nil, fmt.Errorf("%s: the matrix makes %d calls (%d candidates, %d examples, matrix.repeat %d), over the limit of %d calls; lower matrix.repeat or split the dataset",
			r.d.Path, total, len(r.specs), len(r.d.Examples), r.d.repeat(), maxJobs)
	}
	r.planJobs()
	r.compiler = schema.NewStoryCompiler(r.st.Dir, r.st.Patterns())
	if r.cs.SchemaPath != "" {
		if r.sch, err = r.compiler.Compile(r.cs.SchemaPath); err != nil {
			return nil, fmt.Errorf("call site %q: %v", r.cs.Call, err)
		}
	}
	r.conc = r.opts.Concurrency
	if r.conc <= 0 {
		r.conc = runtime.NumCPU()
	}
	return r, nil
}

// planJobs lists this shard's jobs, numbered candidate-major but
// dispatched example-major, so concurrent calls spread over backends.
func (r *evalRun) planJobs() {
	repeat := r.d.repeat()
	nex := len(r.d.Examples)
	r.total = len(r.specs) * nex * repeat
	for ei := range r.d.Examples {
		for rep := range repeat {
			for ci := range r.specs {
				idx := jobIndex(ci, ei, rep, nex, repeat)
				if r.opts.Shards == 0 || shardOf(idx, r.opts.Shards) == r.opts.Shard {
					r.jobs = append(r.jobs, job{cand: ci, ex: ei, rep: rep})
				}
			}
		}
	}
}

// jobIndex numbers a job candidate-major, then by example, then repeat:
// the number a shard's call records are checked against (eval merge).
func jobIndex(cand, ex, rep, nex, repeat int) int { return (cand*nex+ex)*repeat + rep }

// shardOf is the 1-based shard of n that runs job idx.
func shardOf(idx, n int) int { return idx%n + 1 }

// open builds the hook chain, a registry per candidate and the judge. What
// it opened is closed by close, even when open fails part-way.
func (r *evalRun) open() error {
	mx, err := r.opts.matrix(r.v, r.cas, r.compiler)
	if err != nil {
		return err
	}
	r.mx = mx
	r.regs = make([]*agent.Registry, len(r.specs))
	r.slots = make([]chan struct{}, len(r.specs))
	for i, sp := range r.specs {
		if r.regs[i], err = candidateRegistry(mx, r.st, sp, r.cas != nil); err != nil {
			return err
		}
		// A subprocess plugin answers one request at a time: a slot keeps
		// queueing out of the measured latency.
		if sp.Backend == story.PluginSubprocess {
			r.slots[i] = make(chan struct{}, 1)
		}
	}
	if r.d.Comparator.Kind == "judge" {
		if r.judge, err = newJudge(mx, r.st, r.d.Comparator, r.cas != nil); err != nil {
			return err
		}
	}
	return nil
}

// close closes the judge, then the registries, then the hook chain.
func (r *evalRun) close() {
	if r.judge != nil {
		r.judge.close()
	}
	for _, reg := range r.regs {
		if reg != nil {
			reg.Close()
		}
	}
	if r.mx != nil {
		r.mx.Close()
	}
}

// dispatch runs every job on at most r.conc goroutines, returning the
// records in completion order.
func (r *evalRun) dispatch(ctx context.Context) ([]CallRecord, error) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.conc)
	var mu sync.Mutex
	recs := make([]CallRecord, 0, len(r.jobs))
	for _, j := range r.jobs {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			rec, ok, err := r.runJob(gctx, j)
			if !ok || err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			recs = append(recs, rec)
			if r.opts.Progress != nil {
				r.opts.Progress(len(recs), len(r.jobs))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := context.Cause(ctx); err != nil && len(recs) < len(r.jobs) {
		return nil, err
	}
	if len(recs) != len(r.jobs) {
		return nil, errors.New("eval run: interrupted")
	}
	return recs, nil
}

// runJob dispatches and scores one job, holding its candidate's slot;
// false when ctx ended while waiting.
func (r *evalRun) runJob(ctx context.Context, j job) (CallRecord, bool, error) {
	ex := r.d.Examples[j.ex]
	call := r.call(j, ex)
	sl := r.slots[j.cand]
	if sl != nil {
		select {
		case sl <- struct{}{}:
		case <-ctx.Done():
			return CallRecord{}, false, nil
		}
	}
	rec, err := r.runOne(ctx, r.regs[j.cand], call, ex)
	if sl != nil {
		<-sl
	}
	rec.Candidate, rec.Example, rec.Repeat = j.cand, ex.Name, j.rep
	if rate := r.specs[j.cand].CostPerHourUSD; rate != nil && rec.CostUSD == nil {
		c := round9(float64(rec.LatencyMS) * *rate / 3.6e6)
		rec.CostUSD = &c
	}
	return rec, true, err
}

// call is the agent call of one job.
func (r *evalRun) call(j job, ex Example) agent.Call {
	sp := r.specs[j.cand]
	with := cloneMap(r.rend[j.ex].with)
	if sp.Model != "" {
		with["model"] = sp.Model
	}
	if sp.Effort != "" {
		with["effort"] = sp.Effort
	}
	d, cs := r.d, r.cs
	call := agent.Call{
		Alias: sp.Alias, Verb: cs.Verb(), SessionID: "eval:" + d.Call, Turn: int64(j.rep),
		StatePath: cs.StatePath, Prompt: r.rend[j.ex].prompt, SchemaPath: cs.SchemaPath, Schema: r.sch,
		With: with, World: r.rnd.World(), Persona: cs.Agent, Model: sp.Model, Timeout: r.opts.Timeout,
	}
	if r.cas == nil {
		call.CallID = agentcall.ID(r.regs[j.cand].AppID(), fmt.Sprintf("eval:%s:%d:%s:%d", d.Call, j.cand, ex.Name, j.rep))
	}
	return call
}

// report folds the records into the report, with the run's metadata.
func (r *evalRun) report(recs []CallRecord, start time.Time) *Report {
	now := time.Now
	if r.opts.Now != nil {
		now = r.opts.Now
	}
	rep := newReport(r.v, r.specs, recs, r.opts.MaxFailureSamples)
	rep.GeneratedAt = now().UTC().Format(time.RFC3339)
	mode := "live"
	if r.cas != nil {
		mode = "cassette"
	}
	rep.Run = &RunInfo{Mode: mode, Concurrency: r.conc, Jobs: len(r.jobs), TotalJobs: r.total}
	if r.cas == nil {
		rep.Run.WallMS = time.Since(start).Milliseconds()
	}
	if r.opts.Shards > 0 {
		rep.Run.Shard = fmt.Sprintf("%d/%d", r.opts.Shard, r.opts.Shards)
		rep.Calls = recs
	}
	return rep
}

// newReport folds records into a report for the validated dataset.
func newReport(v *Validation, specs []CandidateSpec, recs []CallRecord, maxSamples int) *Report {
	d := v.Dataset
	cfg := SummaryConfig{Bar: d.Task.AdherenceBar, Repeat: d.repeat(), Expect: map[string]map[string]any{}, MaxFailureSamples: maxSamples}
	if d.Selection != nil {
		cfg.Strategy = d.Selection.Strategy
		if d.Selection.Pinned != nil {
			cfg.FallbackProfile = d.Selection.Pinned.FallbackProfile
		}
	}
	for _, ex := range d.Examples {
		cfg.Expect[ex.Name] = ex.Expect
	}
	cands, dec, samples := summarize(specs, recs, cfg)
	return &Report{
		Kind: "agent_eval_report", Eval: d.EvalName(), App: d.App, Call: d.Call,
		Hashes: v.Hashes, AdherenceBar: d.Task.AdherenceBar,
		Candidates: cands, Decision: dec, FailureSamples: samples,
	}
}

// cloneMap is a JSON-shaped deep copy of m, never nil.
func cloneMap(m map[string]any) map[string]any {
	out, _ := jsonvalue.RoundTrip(m).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	return out
}
