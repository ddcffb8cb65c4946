package cmd

import (
	"github.com/spf13/cobra"

	"kitsoki/pkg/eval"
)

func newEvalDiffCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "diff <old-report.json> <new-report.json>",
		Short: "Compare two reports of one eval: verdicts, pass rate, latency and cost per candidate",
		Long: `Diff compares two reports of the same eval candidate by candidate (matched by
profile, model and effort; shown as profile[/model][ effort=e]): the verdict
(regressed, fixed, same, added, removed) and the change in pass rate, pass^k,
p95 latency and average cost, and the selection.
It warns when the reports' dataset, prompt, schema or toolbox hashes differ: the
two runs then did not measure the same task; and when one was a --cassette run
and the other live (a cassette run's candidates name no model unless
matrix.models does).

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
				eval.WriteDiffText(out, nw.Call, args[0], args[1], d)
			}
			if d.Regressions > 0 {
				return silentExit(exitFinding)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON {hashes_changed, mode_changed, old_selected, old_selected_label, new_selected, new_selected_label, candidates: [{key, label, change, old, new}], regressions}; a key is profile/model/effort, a label profile[/model][ effort=e]")
	return c
}
