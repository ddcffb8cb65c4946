package cmd

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/trace"
)

func newTraceCallsCmd(o *traceOpts) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "calls PATH",
		Short:   "One row per agent call: id, turn, state, verb, agent, model, duration, tokens, cost, outcome; then its MCP session and stray lines",
		Example: "  kitsoki trace calls t.jsonl\n  kitsoki trace calls ci-triage --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := o.openTrace(c, args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			out := bufio.NewWriter(c.OutOrStdout())
			defer out.Flush()
			rd := trace.NewReader(in.r, trace.ReadOptions{Name: in.name, KeepPayload: trace.IsAgentCallKind})
			if _, err := rd.Header(); err != nil {
				return corruptErr(err)
			}
			n := 0
			row := func(cl *trace.Call) {
				if asJSON {
					b, _ := json.Marshal(cl)
					if n == 0 {
						out.WriteString("[\n")
					} else {
						out.WriteString(",\n")
					}
					out.Write(termsafe.JSON(b))
				} else {
					if n == 0 {
						fmt.Fprintf(out, "%-16s  %4s  %-24s  %-8s  %-16s  %-20s  %8s  %7s  %6s  %9s  %s\n",
							"CALL_ID", "TURN", "STATE", "VERB", "AGENT", "MODEL", "DURATION", "IN", "OUT", "COST", "OUTCOME")
					}
					outcome := cl.Outcome
					if cl.Outcome == trace.OutcomeError {
						outcome = "error: " + cl.ErrorKind
					}
					if cl.Substitution != nil {
						outcome += " (fallback " + cl.Substitution.FallbackPlugin + ")"
					}
					fmt.Fprintf(out, "%-16s  %4d  %-24s  %-8s  %-16s  %-20s  %8s  %7d  %6d  %9s  %s\n",
						fit(cl.CallID, 16), cl.Turn, fit(cl.StatePath, 24), fit(cl.Verb, 8), fit(cl.AgentName(), 16),
						fit(cmp.Or(cl.Model, "-"), 20), trace.FormatDuration(cl.DurationMS), cl.InputTokens, cl.OutputTokens,
						fmt.Sprintf("$%.4f", cl.CostUSD), lineMessage(outcome))
					if cl.MCPSessionID != "" {
						fmt.Fprintf(out, "%18smcp session  %s\n", "", lineMessage(cl.MCPSessionID))
					}
					for _, s := range cl.Stray {
						fmt.Fprintf(out, "%18sstray        %s\n", "", lineMessage(s))
					}
				}
				n++
			}
			var calls trace.CallTracker
			rerr := rd.Each(func(ev *trace.Event) {
				if cl := calls.Observe(ev); cl != nil {
					row(cl)
				}
			})
			for cl := range calls.Open() {
				row(cl)
			}
			if asJSON {
				if n == 0 {
					out.WriteString("[")
				}
				out.WriteString("\n]\n")
			} else if n == 0 {
				fmt.Fprintln(out, "no agent calls")
			}
			if rerr != nil {
				out.Flush()
				return corruptErr(rerr)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of calls")
	return c
}

// fit escapes s onto one line and clips it to n runes (the row format
// pads it).
func fit(s string, n int) string {
	r := []rune(termsafe.Line(s))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}
