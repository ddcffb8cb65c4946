package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

func init() { registry = append(registry, newValidateCmd) }

func newValidateCmd() *cobra.Command {
	var (
		format        string
		strict        bool
		noColor       bool
		allowUnsetEnv bool
		quiet         bool
		jobs          int
		profile       string
	)
	c := &cobra.Command{
		Use:   "validate [PATH...]",
		Short: "Lint stories: every load-time check, positioned diagnostics, CI formats",
		Long: `Validate checks story directories, app.yaml files, or DIR/... (every app.yaml
below DIR). With no PATH it checks the current directory.

Exit status: 0 clean, 1 findings (errors; with --strict also warnings),
2 usage or I/O error. Warnings can be silenced on their line with a
'# kitsoki:ignore RULE' comment (or on the line below a comment-only line).`,
		RunE: func(c *cobra.Command, args []string) error {
			f, err := diag.ParseFormat(format)
			if err != nil {
				return usagef("--format: %v", err)
			}
			if jobs < 0 {
				return usagef("--jobs %d: must be 0 (one per CPU) or more", jobs)
			}
			files, err := validate.Expand(args)
			if err != nil {
				return usagef("%v", err)
			}
			res := validate.Run(files, validate.Options{
				Story:       story.Options{AllowUnsetEnv: allowUnsetEnv},
				Jobs:        jobs,
				ProfilePath: profile,
			})
			lintFlows(&res, story.Options{AllowUnsetEnv: allowUnsetEnv}) // flow fixtures beside each story
			out := c.OutOrStdout()
			tty := isTerminal(out)
			ho := diag.HumanOptions{Color: tty && !noColor && os.Getenv("NO_COLOR") == "", Snippet: tty}
			if err := diag.Write(out, f, res.Diagnostics, diag.ToolInfo{Name: "kitsoki", Version: version, Rules: story.Rules()}, ho); err != nil {
				return usagef("writing output: %v", err)
			}
			errs, warns := diag.Count(res.Diagnostics)
			if f == diag.FormatHuman && !quiet {
				for _, file := range res.Files {
					if !res.Invalid[file] {
						fmt.Fprintf(out, "✓ %s — valid\n", file)
					}
				}
				fmt.Fprintf(c.ErrOrStderr(), "%d %s checked: %d %s, %d %s\n",
					len(res.Files), plural(len(res.Files), "story", "stories"),
					errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"))
			}
			if errs > 0 || (strict && warns > 0) {
				return silentExit(ExitFinding)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVarP(&format, "format", "f", "human", "output format: human, json, github or sarif")
	fl.BoolVar(&strict, "strict", false, "treat warnings as failures (exit 1)")
	fl.BoolVar(&noColor, "no-color", false, "disable colour (NO_COLOR is also honoured)")
	fl.BoolVar(&allowUnsetEnv, "allow-unset-env", false, "report unset ${VAR} in agent_plugins env/headers as warnings (for CI without secrets)")
	fl.BoolVarP(&quiet, "quiet", "q", false, "human format: print only diagnostics, no per-story summary")
	fl.IntVarP(&jobs, "jobs", "j", 0, "stories checked in parallel (default: number of CPUs)")
	fl.StringVar(&profile, "profile", "", "operator plugin profile to check (default: .kitsoki/plugins.yaml found upward from each story)")
	return c
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
