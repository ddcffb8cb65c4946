package cmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"kitsoki/internal/human"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/trace"
)

func newTraceVerifyCmd(o *traceOpts) *cobra.Command {
	return &cobra.Command{
		Use:     "verify PATH...",
		Short:   "Check traces against every read-time rule (exit 1 if any is corrupt)",
		Example: "  kitsoki trace verify t.jsonl\n  kitsoki trace verify .kitsoki/sessions/*.jsonl",
		Long: `Check each trace against every read-time rule of the trace format and print
either "ok" with its size, or the rule it breaks as path:line: message. All files
are checked; the exit status is 1 when any is corrupt, 2 when one cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out := c.OutOrStdout()
			corrupt, unreadable := 0, 0
			for _, a := range args {
				in, err := o.openTrace(c, a)
				if err != nil {
					fmt.Fprintf(c.ErrOrStderr(), "kitsoki: %s\n", termsafe.Printable(err.Error()))
					unreadable++
					continue
				}
				var res trace.VerifyResult
				if in.path != "" {
					in.Close()
					res, err = trace.VerifyFile(in.path)
				} else {
					res, err = trace.Verify(in.r, in.name)
				}
				if err != nil {
					if ce, ok := errors.AsType[*trace.CorruptError](err); ok {
						fmt.Fprintln(out, traceMsg(ce))
						corrupt++
					} else {
						fmt.Fprintf(c.ErrOrStderr(), "kitsoki: %s\n", termsafe.Printable(err.Error()))
						unreadable++
					}
					continue
				}
				cut := ""
				if res.Cut {
					cut = "; cut at its size bound: it ends with a " + trace.TruncatedKind + " line"
				}
				fmt.Fprintf(out, "ok %s (%d %s, %d %s, %d bytes%s)\n", termsafe.Printable(in.name), res.Events, human.Plural(res.Events, "event", "events"),
					res.Turns, human.Plural(res.Turns, "turn", "turns"), res.Bytes, cut)
			}
			switch {
			case corrupt > 0:
				return silentExit(exitFinding)
			case unreadable > 0:
				return silentExit(exitUsageEnv)
			}
			return nil
		},
	}
}
