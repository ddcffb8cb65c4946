package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/trace"
)

func newTraceStatsCmd(o *traceOpts) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "stats PATH...",
		Short:   "Totals across traces: turns, events by kind, calls and errors by agent and kind, latency, tokens, cost",
		Example: "  kitsoki trace stats t.jsonl\n  kitsoki trace stats .kitsoki/sessions/*.jsonl --json",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			st := trace.NewStats()
			for _, a := range args {
				in, err := o.openTrace(c, a)
				if err != nil {
					return err
				}
				err = st.AddTrace(in.r, in.name)
				in.Close()
				if err != nil {
					return corruptErr(err)
				}
			}
			st.Finish()
			out := c.OutOrStdout()
			if asJSON {
				b, err := json.MarshalIndent(st, "", "  ")
				if err != nil {
					return usagef("stats: %v", err)
				}
				fmt.Fprintf(out, "%s\n", termsafe.JSON(b))
				return nil
			}
			printStats(out, st)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the totals as JSON")
	return c
}

func printStats(w io.Writer, st *trace.Stats) {
	fmt.Fprintf(w, "files        %d (%d bytes)\n", st.Files, st.Bytes)
	fmt.Fprintf(w, "turns        %d\n", st.Turns)
	fmt.Fprintf(w, "events       %d\n", st.Events)
	fmt.Fprintf(w, "agent calls  %d (errors %d, open %d, fallbacks %d)\n", st.Calls, st.CallErrors, st.OpenCalls, st.Fallbacks)
	if st.Calls > 0 {
		fmt.Fprintf(w, "latency      p50 %s, p95 %s\n", trace.FormatDuration(st.LatencyP50MS), trace.FormatDuration(st.LatencyP95MS))
	}
	fmt.Fprintf(w, "tokens       in %d, out %d\n", st.InputTokens, st.OutputTokens)
	fmt.Fprintf(w, "cost         $%.4f\n", st.CostUSD)
	fmt.Fprintf(w, "host calls   %d (errors %d)\n", st.HostCalls, st.HostErrors)

	counts := func(title string, m map[string]int) {
		if len(m) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		keys := slices.Sorted(maps.Keys(m))
		width := 0
		for _, k := range keys {
			width = max(width, len(statsCell(k)))
		}
		for _, k := range keys {
			fmt.Fprintf(w, "  %-*s  %6d\n", width, statsCell(k), m[k])
		}
	}
	counts("events by kind", st.EventsByKind)
	if len(st.ByAgent) > 0 {
		fmt.Fprintln(w, "\nagent calls by agent")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  AGENT\tCALLS\tERRORS\tP50\tP95\tIN\tOUT\tCOST")
		for _, n := range slices.Sorted(maps.Keys(st.ByAgent)) {
			a := st.ByAgent[n]
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%s\t%d\t%d\t$%.4f\n", statsCell(n), a.Calls, a.Errors,
				trace.FormatDuration(a.LatencyP50MS), trace.FormatDuration(a.LatencyP95MS), a.InputTokens, a.OutputTokens, a.CostUSD)
		}
		tw.Flush()
	}
	counts("agent errors by kind", st.ErrorsByKind)
	counts("host calls by handler", st.HostByHandler)
}

// maxStatsCell is the runes of a name a stats row keeps: every row of a
// table is padded to its widest name, so one long name (an agent, a kind,
// a handler, from anyone's trace) would repeat its length on every row.
const maxStatsCell = 64

// statsCell is name as one table cell, clipped to maxStatsCell runes.
func statsCell(name string) string {
	return strings.ReplaceAll(fit(name, maxStatsCell), "\t", `\t`)
}
