package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/testrun"
	"kitsoki/pkg/watch"
)

// watchQuiet is how long test --watch waits after the last change before
// it runs: an editor's save or a checkout is one run.
const watchQuiet = 200 * time.Millisecond

// watchScreen caps the failing fixtures one run lists.
const watchScreen = 12

func addWatchFlag(c *cobra.Command, f *testFlags) {
	c.Flags().BoolVarP(&f.watch, "watch", "w", false, "run the fixtures, then again each time a story file, prompt, schema or fixture changes (only the affected ones); Ctrl-C stops")
}

// checkWatchFlags refuses what a watch does not write.
func checkWatchFlags(f *testFlags) error {
	for _, o := range []struct{ flag, v string }{{"--json", f.jsonOut}, {"--junit", f.junitOut}, {"--shard", f.shard}, {"--trace-out", f.traceOut}} {
		if o.v != "" {
			return usagef("--watch prints a summary per run; %s goes with a single run (drop --watch)", o.flag)
		}
	}
	if f.format != "text" {
		return usagef("--watch prints text; --format %s goes with a single run", f.format)
	}
	if f.cover.on() {
		return usagef("--watch counts no coverage; --cover and its profiles go with a single run (drop --watch)")
	}
	return nil
}

// runWatch is kitsoki test --watch: every fixture once, then the fixtures
// each change touches, until Ctrl-C.
func runWatch(ctx context.Context, stdout, stderr io.Writer, args []string, f *testFlags) error {
	if err := checkWatchFlags(f); err != nil {
		return err
	}
	p, err := planTests(args, f, stderr)
	if err != nil {
		return err
	}
	w := &watcher{out: stdout, errOut: stderr, f: f, Plan: p}
	roots := w.roots()
	if len(roots) == 0 {
		return usagef("--watch: nothing to watch: no story found in %s", strings.Join(args, " "))
	}
	ctx, stop := stopContext(ctx)
	defer stop()
	src, err := watch.Open(roots, watch.RealClock{}, time.Second)
	if err != nil {
		return usagef("--watch: %v", err)
	}
	defer src.Close()
	w.cycle(ctx, nil)
	fmt.Fprintf(stdout, "watching %d director%s for changes (Ctrl-C to stop)\n", len(roots), human.Plural(len(roots), "y", "ies"))
	err = watch.Loop(ctx, src, watch.Options{Quiet: watchQuiet, Run: w.cycle, Error: func(err error) {
		fmt.Fprintf(stderr, "kitsoki test --watch: %s\n", termsafe.Line(err.Error()))
	}})
	fmt.Fprintln(stdout, "watch stopped")
	return err
}

// watcher holds what each run of a watch needs: the flags and what the
// arguments planned.
type watcher struct {
	out, errOut io.Writer
	f           *testFlags
	*testrun.Plan
}

func (w *watcher) runner() *flowtest.Runner {
	return flowtest.NewRunner(w.f.runnerOptions(w.Sandbox))
}

// roots are the directories to watch: each story's, its imports' and
// prompt roots, and the fixtures' own.
func (w *watcher) roots() []string {
	var out []string
	add := func(d string) {
		if abs, err := filepath.Abs(d); err == nil && !slices.Contains(out, abs) {
			if st, err := os.Stat(abs); err == nil && st.IsDir() {
				out = append(out, abs)
			}
		}
	}
	r := w.runner()
	files, _, _ := flowtest.DiscoverUnder(w.f.root, w.f.trees, w.Apps, w.Glob, w.Rel, w.RunRE)
	for _, app := range w.Apps {
		add(filepath.Dir(app))
		if ld, err := r.Story(app); err == nil {
			for _, d := range ld.Story.PromptRoots() {
				add(d)
			}
		}
	}
	for _, file := range files {
		add(filepath.Dir(file.Path))
	}
	return out
}

// cycle runs the fixtures changed touches (all of them when changed is
// nil) and prints the summary.
func (w *watcher) cycle(ctx context.Context, changed []string) {
	start := time.Now()
	files, ds, err := flowtest.DiscoverUnder(w.f.root, w.f.trees, w.Apps, w.Glob, w.Rel, w.RunRE)
	if err != nil {
		fmt.Fprintf(w.errOut, "kitsoki test --watch: %s\n", termsafe.Line(err.Error()))
		return
	}
	r := w.runner()
	if changed != nil {
		files = w.affected(r, files, changed)
		if len(files) == 0 && !diag.HasErrors(ds) {
			return // nothing a fixture reads
		}
	}
	fmt.Fprintf(w.out, "\n── %s  %s\n", start.Format("15:04:05"), describeChange(changed, len(files)))
	if diag.HasErrors(ds) {
		_ = diag.WriteHuman(w.out, diag.Sort(ds), diag.HumanOptions{})
		fmt.Fprintln(w.out, "fixture errors: fix them to run the fixtures")
		return
	}
	if err := loadTestStories(w.out, r, files, w.f.profile, nil); err != nil {
		fmt.Fprintf(w.out, "%s\n", termsafe.Line(err.Error()))
		return
	}
	writeWatchSummary(w.out, r.Run(ctx, files), time.Since(start))
}

// affected keeps the fixture files a change touches: the file itself, or
// any file of its story; editors' scratch files are no change.
func (w *watcher) affected(r *flowtest.Runner, files []*flowtest.File, changed []string) []*flowtest.File {
	targets := make([]watch.Target, len(files))
	for i, file := range files {
		abs, _ := filepath.Abs(file.Path)
		t := watch.Target{Files: []string{abs}}
		if st, err := filepath.Abs(file.Story); err == nil {
			t.Dirs = append(t.Dirs, filepath.Dir(st))
		}
		if ld, err := r.Story(file.Story); err == nil {
			t.Dirs = append(t.Dirs, ld.Story.PromptRoots()...)
		}
		targets[i] = t
	}
	// a changed fixture file reruns itself only, not its story's others
	var others []string
	for _, c := range changed {
		if !scratchFile(c) && !slices.ContainsFunc(targets, func(t watch.Target) bool { return t.Files[0] == c }) {
			others = append(others, c)
		}
	}
	hit := watch.Affected(targets, others)
	var out []*flowtest.File
	for i, file := range files {
		if slices.Contains(hit, i) || slices.Contains(changed, targets[i].Files[0]) {
			out = append(out, file)
		}
	}
	return out
}

// scratchFile reports an editor's or a tool's temporary file: hidden,
// backup, swap (a story's own files are none of these).
func scratchFile(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, ".") || strings.HasPrefix(b, "#") || strings.HasSuffix(b, "~") ||
		strings.HasSuffix(b, ".swp") || strings.HasSuffix(b, ".swx") || strings.HasSuffix(b, ".tmp")
}

// describeChange names the first changed file that is still there (an
// editor's temporary file is gone by now) and how many fixtures run.
func describeChange(changed []string, n int) string {
	changed = slices.DeleteFunc(slices.Clone(changed), scratchFile)
	if i := slices.IndexFunc(changed, exists); i > 0 {
		changed[0], changed[i] = changed[i], changed[0]
	}
	what := fmt.Sprintf("%d fixture file%s", n, human.Plural(n, "", "s"))
	switch len(changed) {
	case 0:
		return "all " + what
	case 1:
		return termsafe.Line(filepath.Base(changed[0])) + " changed: " + what
	}
	return fmt.Sprintf("%s and %d more changed: %s", termsafe.Line(filepath.Base(changed[0])), len(changed)-1, what)
}

// writeWatchSummary is one screen: each failing fixture with its first
// failure (at most watchScreen of them), then the counts.
func writeWatchSummary(w io.Writer, results []*flowtest.Result, took time.Duration) {
	passed, failed, listed := 0, 0, 0
	for _, r := range results {
		if r.Passed() || (r.Flow != nil && r.Flow.Skipped) {
			passed++
			continue
		}
		failed++
		if listed++; listed > watchScreen {
			continue
		}
		why := "failed"
		switch {
		case r.Fatal != nil:
			why = r.Fatal.Detail()
		case len(r.Failures) > 0:
			why = r.Failures[0].Detail()
		}
		first, _, _ := strings.Cut(why, "\n")
		fmt.Fprintf(w, "FAIL %s  %s\n", termsafe.Line(r.Name), first)
	}
	if listed > watchScreen {
		fmt.Fprintf(w, "… and %d more failing (kitsoki test without --watch prints every failure)\n", listed-watchScreen)
	}
	fmt.Fprintf(w, "%d passed, %d failed (%s)\n", passed, failed, human.Duration(took))
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
