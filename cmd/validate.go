package cmd

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"kitsoki/internal/human"
	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/plugin"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

func init() { register("validate", newValidateCmd) }

// maxStdinStory bounds a story read from standard input.
const maxStdinStory = 16 << 20

func newValidateCmd() *cobra.Command {
	var (
		format        string
		strict        bool
		noColor       bool
		allowUnsetEnv bool
		quiet         bool
		jobs          int
		profile       string
		listRules     bool
		stdinName     string
		root          string
		repo          string
	)
	c := &cobra.Command{
		Use:     "validate [PATH...]",
		Short:   "Lint stories: every load-time check, positioned diagnostics, CI formats",
		Example: "  kitsoki validate                      # the story in the current directory\n  kitsoki validate stories/...          # every app.yaml below stories/\n  kitsoki validate --format github --strict .\n  kitsoki validate --format sarif stories/... > kitsoki.sarif",
		Long: `Validate checks story directories, app.yaml files, or DIR/... (every app.yaml
below DIR). With no PATH it checks the current directory. "-" reads one
app.yaml from standard input (an editor's buffer); --stdin-filename names
the file it stands for, so includes, imports and prompt files resolve
beside it and diagnostics carry its name.

Exit status: 0 clean, 1 findings (errors; with --strict also warnings),
2 usage or I/O error. Warnings can be silenced on their line with a
'# kitsoki:ignore RULE' comment (or on the line below a comment-only line);
--list-rules lists the rule ids. With KITSOKI_SANDBOX=1 (a CI job for
untrusted code) a story's ${VAR}s read as set and empty, as under
kitsoki test --sandbox.`,
		RunE: func(c *cobra.Command, args []string) error {
			if listRules {
				return writeRules(c.OutOrStdout(), format)
			}
			f, err := diag.ParseFormat(format)
			if err != nil {
				return usagef("--format: %v", err)
			}
			if jobs < 0 {
				return usagef("--jobs %d: must be 0 (one per CPU) or more", jobs)
			}
			sandboxed, err := plugin.SandboxMode(false, os.Getenv(plugin.SandboxEnv))
			if err != nil {
				return err
			}
			tuneValidateGC()
			opts := validate.Options{
				Story:       story.Options{AllowUnsetEnv: allowUnsetEnv, NoEnv: sandboxed, Root: root, Trees: validate.Trees(args), KitsokiRepo: repo},
				Jobs:        jobs,
				ProfilePath: profile,
				Strict:      strict,
				Flows:       true, // flow fixtures beside each story
			}
			files, err := validateFiles(c, args, stdinName, &opts)
			if err != nil {
				return err
			}
			res := validate.Run(files, opts)
			if err := writeDiags(c, f, res.Diagnostics, diagTool(f), res.Source); err != nil {
				return err
			}
			errs, warns := diag.Count(res.Diagnostics)
			if f == diag.FormatHuman && !quiet {
				writeValidateSummary(c.OutOrStdout(), c.ErrOrStderr(), res, strict, errs, warns)
			}
			if errs > 0 || (strict && warns > 0) {
				return silentExit(exitFinding)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVarP(&format, "format", "f", "human", "output format: human, json, github, sarif or codeclimate (GitLab code quality) (--list-rules: human or json)")
	fl.BoolVar(&strict, "strict", false, "treat warnings as failures (exit 1) and report kitsoki:ignore comments that suppress nothing")
	fl.BoolVar(&noColor, "no-color", false, "same as --color never")
	_ = fl.MarkHidden("no-color")
	fl.BoolVar(&allowUnsetEnv, "allow-unset-env", false, "report unset ${VAR} in agent_plugins env/headers as warnings (for CI without secrets)")
	fl.BoolVarP(&quiet, "quiet", "q", false, "human format: print only diagnostics, no per-story summary")
	fl.IntVarP(&jobs, "jobs", "j", 0, "stories checked in parallel (default: number of CPUs)")
	fl.StringVar(&profile, "profile", "", "operator plugin profile to check, with the .kitsoki/plugins.yaml found upward from each story")
	fl.BoolVar(&listRules, "list-rules", false, "list every rule: id, severity, whether run refuses the story, summary, example")
	addRootFlag(c, &root)
	addKitsokiRepoFlag(c, &repo)
	addSemanticRoutingFlag(c)
	fl.StringVar(&stdinName, "stdin-filename", "", "with -: the app.yaml path the standard input stands for (positions, relative files)")
	return c
}

// validateFiles is the app.yaml files args name; "-" reads the one story
// from standard input into opts.Stdin, named by --stdin-filename.
func validateFiles(c *cobra.Command, args []string, stdinName string, opts *validate.Options) ([]string, error) {
	if len(args) != 1 || args[0] != "-" {
		if stdinName != "" {
			return nil, usagef("--stdin-filename: only meaningful with - (read the story from standard input)")
		}
		files, err := validate.Expand(args, warnLine(c.ErrOrStderr()))
		if err != nil {
			return nil, usagef("%v", err)
		}
		return files, nil
	}
	data, err := safefile.ReadAtMost(c.InOrStdin(), maxStdinStory)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, usagef("-: standard input holds more than %d MiB; a story manifest is far smaller", maxStdinStory>>20)
	}
	if err != nil {
		return nil, usagef("-: reading standard input: %v", err)
	}
	opts.Stdin = data
	return []string{filepath.Clean(story.ManifestPath(cmp.Or(stdinName, validate.StoryFile)))}, nil
}

// diagTool is the tool block of format f's report, the same for
// validate and eval check: SARIF gets the rule table, and SARIF and Code
// Climate name files relative to the repository root.
func diagTool(f diag.Format) diag.ToolInfo {
	tool := diag.ToolInfo{Name: "kitsoki", Version: version}
	switch f {
	case diag.FormatSARIF:
		tool.Rules, tool.Root = validate.Rules(), validate.RepoRoot()
	case diag.FormatCodeClimate:
		tool.Root = validate.RepoRoot()
	}
	return tool
}

// writeDiags writes ds to stdout in format f (source gives a file's bytes).
func writeDiags(c *cobra.Command, f diag.Format, ds []diag.Diagnostic, tool diag.ToolInfo, source func(string) ([]byte, bool)) error {
	out := c.OutOrStdout()
	color, err := useColor(c, out)
	if err != nil {
		return err
	}
	if err := diag.Write(out, f, ds, tool, diag.HumanOptions{Color: color, Snippet: isTerminal(out), Source: source}); err != nil {
		return usagef("writing output: %v", err)
	}
	return nil
}

// writeValidateSummary is the human format's verdict per story (stdout)
// and the counts (stderr).
func writeValidateSummary(out, stderr io.Writer, res validate.Result, strict bool, errs, warns int) {
	perWarn := map[string]int{}
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Warning {
			perWarn[d.File]++
		}
	}
	for _, file := range res.Files {
		switch n := perWarn[file]; {
		case res.Invalid[file]:
		case strict && n > 0:
			fmt.Fprintf(out, "✗ %s — %d %s (failing under --strict)\n", termsafe.Line(file), n, human.Plural(n, "warning", "warnings"))
		default:
			fmt.Fprintf(out, "✓ %s — valid\n", termsafe.Line(file))
		}
	}
	verdict := ""
	if strict && errs == 0 && warns > 0 {
		verdict = " (--strict: warnings fail)"
	}
	fmt.Fprintf(stderr, "%d %s checked: %d %s, %d %s%s\n",
		len(res.Files), human.Plural(len(res.Files), "story", "stories"),
		errs, human.Plural(errs, "error", "errors"), warns, human.Plural(warns, "warning", "warnings"), verdict)
}

func writeRules(w io.Writer, format string) error {
	rules := validate.Rules()
	switch format {
	case "json":
		type row struct {
			ID       string `json:"id"`
			Severity string `json:"severity"`
			Blocking bool   `json:"blocking"`
			Summary  string `json:"summary"`
			Example  string `json:"example"`
		}
		rows := make([]row, len(rules))
		for i, r := range rules {
			rows[i] = row{r.ID, string(r.Severity), !r.LintOnly, r.Summary, r.Example}
		}
		return writeJSON(w, rows)
	case "human", "text", "":
	default:
		return usagef("--format %q: --list-rules prints human or json", format)
	}
	for _, r := range rules {
		run := "run refuses"
		if r.LintOnly || r.Severity == diag.Warning {
			run = "lint only"
		}
		fmt.Fprintf(w, "%-16s %-7s %-11s %s\n", r.ID, r.Severity, run, r.Summary)
		for line := range strings.SplitSeq(r.Example, "\n") {
			fmt.Fprintf(w, "%16s   | %s\n", "", line)
		}
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
