package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"kitsoki/pkg/eval"
)

func newEvalDiffCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "diff <old-report.json> <new-report.json>",
		Short: "Compare two reports of one eval: verdicts, pass rate, latency and cost per candidate",
		Long: `Diff compares two reports of the same eval candidate by candidate (matched by
profile/model/effort): the verdict (regressed, fixed, same, added, removed) and
the change in pass rate, pass^k, p95 latency and average cost, and the selection.
It warns when the reports' dataset, prompt, schema or toolbox hashes differ: the
two runs then did not measure the same task.

Exit status: 0 no regression, 1 a candidate that passed now fails or the
selection was lost, 2 usage or environment error.`,
		Example: "  kitsoki eval diff evals/reports/pick/20261201T100000Z.json evals/reports/pick/latest.json",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			old, err := eval.LoadReport(args[0])
			if err != nil {
				return evalLoadErr(err)
			}
			nw, err := eval.LoadReport(args[1])
			if err != nil {
				return evalLoadErr(err)
			}
			if old.Call != nw.Call {
				return usagef("eval diff: %s measures call %q and %s call %q; compare two reports of the same call", args[0], old.Call, args[1], nw.Call)
			}
			d := eval.Compare(old, nw)
			out := printableWriter{c.OutOrStdout()}
			if asJSON {
				if err := writeJSON(out, d); err != nil {
					return err
				}
			} else {
				printDiff(out, nw.Call, args, d)
			}
			if d.Regressions > 0 {
				return silentExit(exitFinding)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON {hashes_changed, old_selected, new_selected, candidates: [{key, change, old, new}], regressions}")
	return c
}

func printDiff(out io.Writer, call string, paths []string, d *eval.Diff) {
	fmt.Fprintf(out, "eval: %s\nold: %s\nnew: %s\n", cell(call), cell(paths[0]), cell(paths[1]))
	if len(d.HashesChanged) > 0 {
		fmt.Fprintf(out, "warning: %s changed: the two runs did not measure the same task\n", strings.Join(d.HashesChanged, ", "))
	}
	fmt.Fprintf(out, "selected: %s -> %s\n", orNone(d.OldSelected), orNone(d.NewSelected))
	rows := d.Candidates[:min(len(d.Candidates), maxShownCandidates)]
	for _, cd := range rows {
		fmt.Fprintf(out, "- %s %s", cell(cd.Key), cd.Change)
		if cd.Old != nil && cd.New != nil {
			fmt.Fprintf(out, " (%s -> %s): pass_rate %.2f -> %.2f (%+.2f)", verdict(cd.Old.Pass), verdict(cd.New.Pass),
				cd.Old.ComparatorPassRate, cd.New.ComparatorPassRate, cd.New.ComparatorPassRate-cd.Old.ComparatorPassRate)
			if cd.Old.PassKRate != nil && cd.New.PassKRate != nil {
				fmt.Fprintf(out, ", pass^k %.2f -> %.2f", *cd.Old.PassKRate, *cd.New.PassKRate)
			}
			if o, n := cd.Old.P95LatencyMS, cd.New.P95LatencyMS; o != nil && n != nil {
				fmt.Fprintf(out, ", p95 %dms -> %dms (%+dms)", *o, *n, *n-*o)
			}
			if o, n := cd.Old.AvgCostUSD, cd.New.AvgCostUSD; o != nil && n != nil {
				fmt.Fprintf(out, ", avg cost $%.6f -> $%.6f (%+.6f)", *o, *n, *n-*o)
			}
		}
		fmt.Fprintln(out)
	}
	if more := len(d.Candidates) - len(rows); more > 0 {
		fmt.Fprintf(out, "- %d more candidates not shown; see --json\n", more)
	}
	if d.Regressions == 0 {
		fmt.Fprintln(out, "regressions: none")
		return
	}
	what := d.Regressed()
	for i, k := range what {
		what[i] = cell(k)
	}
	if d.OldSelected != "" && d.NewSelected == "" {
		what = append(what, "no candidate selected any more")
	}
	fmt.Fprintf(out, "regressions: %d (%s)\n", d.Regressions, strings.Join(what, "; "))
}

// sinceLine is eval run's one-line comparison with the latest.json it
// replaced: verdict changes and the selection.
func sinceLine(prev, r *eval.Report) string {
	d := eval.Compare(prev, r)
	var parts []string
	for _, ch := range []string{eval.ChangeRegressed, eval.ChangeFixed, eval.ChangeAdded, eval.ChangeRemoved} {
		var keys []string
		for _, cd := range d.Candidates {
			if cd.Change == ch {
				keys = append(keys, cell(cd.Key))
			}
		}
		if len(keys) > 3 {
			keys = append(keys[:3], fmt.Sprintf("%d more", len(keys)-3))
		}
		if len(keys) > 0 {
			parts = append(parts, ch+" "+strings.Join(keys, ", "))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "no verdict changed")
	}
	if d.OldSelected != d.NewSelected {
		parts = append(parts, "selected "+orNone(d.OldSelected)+" -> "+orNone(d.NewSelected))
	}
	if len(d.HashesChanged) > 0 {
		parts = append(parts, strings.Join(d.HashesChanged, ", ")+" changed since")
	}
	return fmt.Sprintf("since the previous latest.json (%s): %s", cell(prev.GeneratedAt), strings.Join(parts, "; "))
}

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return cell(s)
}
