package cmd

import (
	"cmp"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/termsafe"
)

func newTraceLsCmd(o *traceOpts) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "ls",
		Short:   "List the traces under the sessions directory, newest first",
		Example: "  kitsoki trace ls\n  kitsoki trace ls --json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			sess, err := openSessions(o.sessionsDir)
			if err != nil {
				return err
			}
			defer sess.Close()
			list, err := sess.List(warnLine(c.ErrOrStderr()))
			if err != nil {
				return usagef("%v", err)
			}
			if o.lsListed != nil {
				o.lsListed()
			}
			for i := range list {
				list[i].AppID = sess.PeekAppID(list[i])
			}
			out := c.OutOrStdout()
			if asJSON {
				b, _ := json.MarshalIndent(nonNil(list), "", "  ")
				fmt.Fprintf(out, "%s\n", termsafe.JSON(b))
				return nil
			}
			if len(list) == 0 {
				// From the open, never by the path again: the directory swapped
				// for a link out since would tell what lies there.
				if sess.Missing() {
					fmt.Fprintf(out, "no traces under %s (the directory does not exist; kitsoki run creates it, or pass --sessions-dir)\n", termsafe.Line(o.sessionsDir))
					return nil
				}
				fmt.Fprintf(out, "no traces under %s\n", termsafe.Line(o.sessionsDir))
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "MODIFIED (UTC)\tSIZE\tAPP\tID\tPATH")
			for _, tf := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", tf.ModTime.UTC().Format(time.DateTime), humanSize(tf.Size), termsafe.Cell(cmp.Or(tf.AppID, "-")), termsafe.Cell(tf.ID), termsafe.Cell(tf.Path))
			}
			return tw.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return c
}

func humanSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1fK", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1fG", float64(n)/(1<<30))
}
