package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"kitsoki/pkg/compose"
	"kitsoki/pkg/eval"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
)

func newEvalRunCmd() *cobra.Command {
	var (
		jobs       int
		cassette   string
		shard      string
		outPath    string
		timeout    time.Duration
		retries    int
		noProgress bool
		asJSON     bool
		renders    evalRenders
		profile    string
		root       string
	)
	c := &cobra.Command{
		Use:     "run <eval.yaml>",
		Short:   "Run the candidate matrix for real and write a report with the selected backend",
		Example: "  kitsoki eval run evals/merge_judge.yaml\n  kitsoki eval run evals/merge_judge.yaml -j 8 --cassette judge.cassette.yaml\n  kitsoki eval run evals/merge_judge.yaml --shard 1/4",
		Long: `Run measures every candidate of the dataset's matrix (each matrix.profiles
entry names an agent_plugins alias of the story, × matrix.models[profile] ×
matrix.effort) on every example, matrix.repeat times, through the same agent
dispatch and prompt rendering as the story's call site.

How model and effort reach a backend: subprocess, mcp_http and inprocess
plugins receive them as with.model and with.effort; builtin.claude_cli runs
with --model <model> (effort is recorded only); builtin.local_llm uses the
model as its managed model id. With --cassette the cassette answers every
profile (one that is no alias as agent.<profile>): its candidate's backend is
"cassette" and it has no model unless matrix.models names one.

Candidates are shown as profile[/model][ effort=e]; a failing one is followed
by why the adherence bar refused it and its first failure.

The report (schema_valid_rate, comparator_pass_rate, contract_conformance_rate,
p50/p90/p95/p99 latency, avg/p95 cost from meta.cost_usd, retry_rate, fallback_rate,
pass^k, the adherence bar verdict, the selection decision, failure samples,
and the dataset/prompt/schema/toolbox hashes) goes to
evals/reports/<call>/<timestamp>.json and latest.json, written atomically:
an interrupted run (Ctrl-C) writes nothing. The timestamped file never
replaces another: a second run within the same second writes
<timestamp>_2.json (then _3, ...). The report's eval field names the
dataset (its file name without .yaml); when latest.json is the report of
another dataset of the same call, the run keeps it (it is that dataset's
evidence) and writes the timestamped file alone, which is then this
dataset's latest. A --cassette run is a replay: it never replaces a
latest.json written by live agents (or by the existing engine), only one
another replay wrote; it keeps it and writes the timestamped file alone.

--shard i/n runs every n-th call starting at i and writes
reports/<call>/shard-i-of-n.json; combine shards with kitsoki eval merge.

Exit status: 0 a candidate passed, 1 none passed or the dataset is invalid,
2 usage or environment error, 130 interrupted by Ctrl-C or 143 by SIGTERM (no report
written; the message says how many calls had finished).`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := refuseInSandbox("eval run"); err != nil {
				return err
			}
			switch {
			case jobs < 0:
				return usagef("--jobs %d: must be 0 (one per CPU) or more", jobs)
			case retries < 0:
				return usagef("--retries %d: must be 0 or more", retries)
			case timeout < 0:
				return usagef("--timeout %s: must not be negative (0 = the default of 10m)", timeout)
			}
			opts := eval.RunOptions{Concurrency: jobs, Cassette: cassette, Timeout: timeout, Retries: retries, ClaudeSubmit: claudeSubmitCommand()}
			var err error
			if opts.Shard, opts.Shards, err = parseShard(shard); err != nil {
				return err
			}
			// A --profile that cannot be used is an operator's error: said
			// first, before the dataset's findings.
			if err := plugin.CheckFlagProfile(profile); err != nil {
				return profileUsageError(c.ErrOrStderr(), profile, err)
			}
			d, err := loadDataset(args[0], "-o", outPath)
			if err != nil {
				return err
			}
			if err := checkNotInput("-o", outPath, cassette); err != nil {
				return err
			}
			if err := renders.check(false, args[0], cassette); err != nil {
				return err
			}
			if outPath != "" {
				if st, err := os.Stat(outPath); err == nil && st.IsDir() {
					return usagef("-o %s: is a directory; name a report file, e.g. -o %s", outPath, filepath.Join(outPath, "report.json"))
				}
			}
			v := eval.Validate(d, &eval.StoryLoader{Opts: story.Options{Root: root}})
			if cassette != "" {
				if err := v.ForCassette(cassette); err != nil {
					return usagef("--cassette: %v", err)
				}
			}
			v.ForRun()
			if err := requireValid(c.ErrOrStderr(), v, true); err != nil {
				return err
			}
			// The operator's assembly, as kitsoki run resolves it.
			if opts.Plan, err = resolvePlan(v.Loaded, compose.ResolveOptions{Profile: profile}); err != nil {
				return err
			}
			ctx, stop := stopContext(c.Context())
			defer stop()
			var bar *progressbar.ProgressBar
			showBar := !noProgress && isTerminal(c.ErrOrStderr())
			var finished, total int // for the interrupted run's message
			opts.Progress = func(done, n int) {
				finished, total = done, n
				if !showBar {
					return
				}
				if bar == nil {
					bar = progressbar.NewOptions(n, progressbar.OptionSetWriter(c.ErrOrStderr()),
						progressbar.OptionSetDescription("eval "+lineMessage(d.Call)), progressbar.OptionShowCount(),
						progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
				}
				bar.Set(done)
			}
			r, err := eval.Run(ctx, v, opts)
			if bar != nil {
				bar.Finish()
			}
			if err != nil {
				if i := interruptedBy(ctx); i != nil {
					return interruptedError(i, "eval run", interruptedLost(finished, total))
				}
				return usagef("eval run: %v", err)
			}
			return finishReport(c, v, r, outPath, renders, asJSON)
		},
	}
	fl := c.Flags()
	fl.IntVarP(&jobs, "jobs", "j", 0, "calls run at once (default: number of CPUs; cassette runs are sequential)")
	fl.StringVar(&cassette, "cassette", "", "answer every candidate from this host_cassette `FILE`: offline and deterministic")
	fl.StringVar(&shard, "shard", "", "run slice `i/n` of the calls (combine with kitsoki eval merge)")
	fl.StringVarP(&outPath, "output", "o", "", "write the report to `FILE` only (default: reports/<call>/<timestamp>.json and latest.json)")
	fl.DurationVar(&timeout, "timeout", 0, "hard deadline of one call (default 10m)")
	fl.DurationVar(&timeout, "call-timeout", 0, "the same as --timeout: hard deadline of one call (default 10m), the name kitsoki run uses")
	fl.IntVar(&retries, "retries", 1, "retries of a call that fails with plugin_crash or transport_error")
	fl.StringVar(&profile, "profile", "", "operator plugin profile, applied over the .kitsoki/plugins.yaml found upward from the story: its disable:, redact, budget and hooks apply as in kitsoki run")
	addRootFlag(c, &root)
	fl.BoolVar(&noProgress, "no-progress", false, "no progress bar, even on a terminal")
	fl.BoolVar(&asJSON, "json", false, "print the report JSON alone on stdout (as written, for jq); the summary goes to stderr")
	renders.addFlags(c, false)
	// Upstream gated the runner behind --live; runs are live by default here.
	fl.Bool("live", false, "accepted for compatibility: runs are live unless --cassette is given")
	fl.MarkHidden("live")
	return c
}

// interruptedLost says what an interrupted eval run lost: the calls that
// had finished are in no report, and how to run a long matrix in parts.
func interruptedLost(finished, total int) string {
	had := "no call had finished"
	if total > 0 {
		had = fmt.Sprintf("%d of %d calls had finished", finished, total)
	}
	return "no report written (" + had + "; a long run can go in parts: --shard i/n, then kitsoki eval merge)"
}

// parseShard is a --shard i/n value (0, 0 for "").
func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	// the whole value, not a prefix of it (Sscanf took "2/4x" as 2/4)
	is, ns, ok := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	if !ok || ierr != nil || nerr != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usagef("--shard %q: expected i/n with 1 <= i <= n, e.g. --shard 2/4", s)
	}
	return i, n, nil
}
