package cmd

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/flowtest"
)

// addUpdateFlags adds --update and --dry-run to kitsoki test.
func addUpdateFlags(c *cobra.Command, f *testFlags) {
	fl := c.Flags()
	fl.BoolVar(&f.update, "update", false, "rewrite in place the expectations that differ from what the run shows (expect_state, listed expect_world keys, expect_view_matches, expect_host_calls, expect_error code), printing a diff")
	fl.BoolVar(&f.dryRun, "dry-run", false, "with --update: print the diff, change no file")
}

// checkUpdateFlags refuses --update with --fail-fast, --shard or reports.
func checkUpdateFlags(f *testFlags) error {
	if f.dryRun && !f.update {
		return usagef("--dry-run goes with --update (kitsoki test --update --dry-run)")
	}
	if !f.update {
		return nil
	}
	for _, x := range []struct {
		flag string
		set  bool
	}{{"--fail-fast", f.failFast}, {"--shard", f.shard != ""}, {"--json", f.jsonOut != ""}, {"--junit", f.junitOut != ""},
		{"--trace-out", f.traceOut != ""}, {"--format github", f.format == "github"}, {"--watch", f.watch}, {"--cover", f.cover.on()}} {
		if x.set {
			return usagef("--update cannot go with %s: run the fixtures with it once they pass", x.flag)
		}
	}
	return nil
}

// runUpdate is kitsoki test --update: the diffs, the fixtures left alone,
// the files written unless --dry-run, then the summary of what was.
func runUpdate(ctx context.Context, stdout, stderr io.Writer, runner *flowtest.Runner, files []*flowtest.File, results []*flowtest.Result, dryRun bool) error {
	u := runner.Update(ctx, files, results)
	for _, fu := range u.Files {
		fu.WriteDiff(stdout)
	}
	for _, r := range u.Refused {
		fmt.Fprintf(stdout, "not updated  %s  %s: %s\n", termsafe.Line(r.Fixture), termsafe.Line(r.Pos.String()), termsafe.Printable(r.Reason))
	}
	// The files are written before the summary, so it counts only what
	// reached the disk (a full disk or a file changed meanwhile is not).
	writeFailed := false
	if !dryRun {
		if err := runner.WriteUpdate(u); err != nil {
			fmt.Fprintf(stderr, "kitsoki test --update: %s\n", termsafe.Printable(err.Error()))
			writeFailed = true
		}
	}
	verb := "updated"
	if dryRun {
		verb = "would be updated"
	}
	fmt.Fprintf(stdout, "%d %s %s, %d %s changed", u.Fixtures, human.Plural(u.Fixtures, "fixture", "fixtures"), verb, u.Changes, human.Plural(u.Changes, "expectation", "expectations"))
	if len(u.Refused) > 0 {
		fmt.Fprintf(stdout, ", %d failing %s not updated", len(u.Refused), human.Plural(len(u.Refused), "fixture", "fixtures"))
	}
	if u.Unwritten > 0 {
		fmt.Fprintf(stdout, ", %d %s not written (see above)", u.Unwritten, human.Plural(u.Unwritten, "file", "files"))
	}
	fmt.Fprintln(stdout)
	if dryRun && u.Fixtures > 0 {
		fmt.Fprintln(stdout, "(--dry-run: no file was changed)")
	}
	if writeFailed {
		return silentExit(exitUsageEnv)
	}
	switch {
	case slices.ContainsFunc(results, func(r *flowtest.Result) bool { return r.Fatal != nil }):
		return silentExit(exitUsageEnv)
	case len(u.Refused) > 0, dryRun && u.Fixtures > 0:
		return silentExit(exitFinding)
	}
	return nil
}
