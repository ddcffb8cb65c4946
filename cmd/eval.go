package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kitsoki/internal/human"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/eval"
	"kitsoki/pkg/story"
)

func init() { register("eval", newEvalCmd) }

func newEvalCmd() *cobra.Command {
	c := &cobra.Command{
		Use:     "eval",
		Short:   "Story-local agent evals: validate datasets and reports, run a candidate matrix, pick the backend",
		Example: "  kitsoki eval list examples/ci-triage\n  kitsoki eval run evals/merge_judge.yaml -j 4\n  kitsoki eval check .",
		Long: `Eval works on <story>/evals/*.yaml datasets (kind: agent_eval) and their
reports under evals/reports/<call>/*.json (kind: agent_eval_report).

  eval list  <story-dir|eval.yaml>       one row per dataset: call, status, comparator, pin, path
  eval show  <eval.yaml|report.json>     dataset summary or a report's candidates (--json, --html FILE)
  eval run   <eval.yaml>                 measure every candidate for real and write a report
  eval merge <eval.yaml> SHARD.json...   combine --shard reports into one
  eval check <story-dir>                 CI gate: every pinned selection has fresh, passing evidence
  eval diff  OLD.json NEW.json           what a new run changed per candidate; exit 1 on a regression

Statuses: unmeasured (no report), stale (a dataset/prompt/schema/toolbox hash
changed), passing (a candidate passed), failing, invalid (the dataset does
not validate). latest.json wins over other reports, unless its eval names
another dataset of the call: then the dataset's newest report counts.`,
	}
	c.AddCommand(newEvalListCmd(), newEvalShowCmd(), newEvalRunCmd(), newEvalMergeCmd(), newEvalCheckCmd(), newEvalDiffCmd())
	return c
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(&jsonWriter{w: w}) // one Write per Encode: nothing is held
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newEvalListCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list <story-dir|eval.yaml>",
		Short: "List datasets with their status (call, status, comparator, pin, path)",
		Long: `List datasets with their status (call, status, comparator, pin, path).

Every dataset gets a row. One that cannot be read (broken YAML, a key given
twice, a document that is no mapping) is listed invalid with a WARN line
naming the place, and the exit status is then 1, as the existing engine's
eval list, which stops at it. One that reads but does not validate (a
cassette kept as evals/*.yaml, a dataset missing call:) is listed invalid
as upstream lists it, exit 0, with a WARN line saying why.`,
		Example: "  kitsoki eval list pkg/eval/testdata/pr-refinement\n  kitsoki eval list evals/merge_judge.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			files, err := eval.Discover(args[0])
			if err != nil {
				return usagef("%v", err)
			}
			if len(files) == 0 {
				if _, err := os.Lstat(filepath.Join(args[0], story.StoryFile)); err != nil { // as validate.Expand
					return usagef("eval list: %s is not a story directory (no app.yaml) and has no evals/*.yaml; give a story directory or a dataset file", args[0])
				}
				fmt.Fprintf(c.ErrOrStderr(), "kitsoki: no eval datasets under %s (add evals/<call>.yaml with kind: agent_eval)\n", filepath.Join(args[0], "evals"))
			}
			var refused []string
			warned := 0
			rows := eval.List(files, func(file string, err error) {
				if eval.StopsList(err) {
					refused = append(refused, file)
				}
				warned++
				fmt.Fprintf(c.ErrOrStderr(), "WARN: %s\n", printableMessage(err.Error()))
			})
			out := printableWriter{c.OutOrStdout()}
			if asJSON {
				if err := writeJSON(out, rows); err != nil {
					return err
				}
			} else {
				eval.WriteListText(out, rows)
			}
			// every row is listed; the exit status is upstream's, whose list
			// stops at such a dataset, so a CI job fails on it either way
			if len(refused) > 0 {
				return findingf("%s", listRefusedText(refused, warned))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of {call, status, comparator, pin, path}")
	return c
}

func newEvalShowCmd() *cobra.Command {
	var asJSON bool
	var htmlOut string
	var renders evalRenders
	c := &cobra.Command{
		Use:     "show <eval.yaml|report.json>",
		Short:   "Show a dataset (call site, status, findings) or a report's candidates",
		Example: "  kitsoki eval show evals/merge_judge.yaml\n  kitsoki eval show evals/reports/merge_judge/latest.json --json\n  kitsoki eval show evals/merge_judge.yaml --html report.html",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			out := printableWriter{c.OutOrStdout()}
			if asJSON && renders.toStdout() {
				return usagef("--json and a rendering to standard output (-) cannot both print; write one of them to a file")
			}
			if strings.HasSuffix(strings.ToLower(args[0]), ".json") {
				r, err := eval.LoadReport(args[0])
				if err != nil {
					return evalLoadErr(err)
				}
				if err := refuseDashOut("--html", htmlOut); err != nil {
					return err
				}
				if err := checkNotInput("--html", htmlOut, args[0]); err != nil {
					return err
				}
				if err := renders.check(true, args[0]); err != nil {
					return err
				}
				return showReport(c, r, renders, htmlOut, asJSON)
			}
			d, err := loadDataset(args[0], "--html", htmlOut)
			if err != nil {
				return err
			}
			v := eval.Validate(d, &eval.StoryLoader{})
			status, latest, err := eval.DatasetStatus(v) // invalid, no report, when v is not OK
			if err != nil {
				fmt.Fprintf(c.ErrOrStderr(), "WARN: %s\n", printableMessage(err.Error()))
			}
			if err := renders.check(true, args[0]); err != nil {
				return err
			}
			if renders != (evalRenders{}) || htmlOut != "" {
				if latest == nil {
					return findingf("%s: no report to render (status %s); run kitsoki eval run %s", args[0], status, args[0])
				}
				if err := renders.check(true, latest.Path); err != nil {
					return err
				}
				if err := checkNotInput("--html", htmlOut, latest.Path); err != nil {
					return err
				}
				if err := writeRenders(c, latest, renders, htmlOut); err != nil || renders.toStdout() {
					return err
				}
			}
			if asJSON {
				if err := writeJSON(out, eval.NewDatasetSummary(v, status, latest)); err != nil {
					return err
				}
			} else {
				eval.WriteDatasetText(out, v, status, latest)
			}
			if !v.OK() {
				return findingf("eval validation failed")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON (a report is re-encoded; a dataset gives {call, dataset, status, errors, warnings, latest_report})")
	c.Flags().StringVar(&htmlOut, "html", "", "write one self-contained HTML page (candidates table, pass rate against cost chart) to `FILE`")
	renders.addFlags(c, true)
	return c
}

// showReport writes a report's renderings and --html, then prints it
// (as JSON with asJSON) unless a rendering took standard output.
func showReport(c *cobra.Command, r *eval.Report, renders evalRenders, htmlOut string, asJSON bool) error {
	if err := writeRenders(c, r, renders, htmlOut); err != nil || renders.toStdout() {
		return err
	}
	out := printableWriter{c.OutOrStdout()}
	if asJSON {
		b, err := r.Marshal()
		if err != nil {
			return err
		}
		_, err = out.Write(b)
		return err
	}
	eval.WriteReportText(out, r)
	return nil
}

// writeRenders writes the --junit and --markdown renderings of r, then
// --html when it is set.
func writeRenders(c *cobra.Command, r *eval.Report, renders evalRenders, htmlOut string) error {
	if err := renders.write(c, r); err != nil || htmlOut == "" {
		return err
	}
	if err := checkOutInside("--html", htmlOut); err != nil {
		return err
	}
	b, err := eval.RenderHTML(r)
	if err == nil {
		err = eval.WriteFileAtomic(htmlOut, b)
	}
	if err != nil {
		return usagef("%v", err)
	}
	return nil
}

func newEvalMergeCmd() *cobra.Command {
	var outPath string
	var renders evalRenders
	c := &cobra.Command{
		Use:     "merge <eval.yaml> <shard.json>...",
		Short:   "Combine the reports of eval run --shard i/n into one report",
		Example: "  kitsoki eval run evals/judge.yaml --shard 1/2 -o s1.json   # on machine 1\n  kitsoki eval run evals/judge.yaml --shard 2/2 -o s2.json   # on machine 2\n  kitsoki eval merge evals/judge.yaml s1.json s2.json",
		Args:    cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			d, err := loadDataset(args[0], "-o", outPath)
			if err != nil {
				return err
			}
			v := eval.Validate(d, &eval.StoryLoader{})
			if err := requireValid(c.ErrOrStderr(), v, false); err != nil {
				return err
			}
			var shards []*eval.Report
			for _, p := range args[1:] {
				r, err := eval.LoadReport(p)
				if err != nil {
					return evalLoadErr(err)
				}
				if err := checkNotInput("-o", outPath, p); err != nil {
					return err
				}
				if err := eval.CheckShardSize(v, r); err != nil {
					return findingf("%v", err)
				}
				shards = append(shards, r)
			}
			if err := renders.check(false, args...); err != nil {
				return err
			}
			r, err := eval.Merge(v, shards)
			if err != nil {
				return findingf("%v", err)
			}
			return finishReport(c, v, r, outPath, renders, false)
		},
	}
	c.Flags().StringVarP(&outPath, "output", "o", "", "write the report to `FILE` (default: reports/<call>/<timestamp>.json and latest.json)")
	renders.addFlags(c, false)
	return c
}

// finishReport writes a run or merged report and its renderings, prints
// its summary and sets the exit code: 1 when no candidate passed. With
// asJSON, standard output holds the report JSON alone, as written (its
// decision.evidence included), and the summary goes to standard error:
// --json | jq reads one document.
func finishReport(c *cobra.Command, v *eval.Validation, r *eval.Report, outPath string, renders evalRenders, asJSON bool) error {
	dest, err := eval.ReportPaths(v.Dataset, r, outPath, time.Now())
	if err != nil {
		return usagef("%v", err)
	}
	for _, p := range dest.Paths {
		var err error
		if outPath == "" { // the dataset's own reports/: its project's rule first
			err = checkOutInsideOf(v.Dataset.Dir(), "report", p)
		}
		if err == nil {
			err = checkOutInside("report", p)
		}
		if err != nil {
			return err
		}
	}
	prev := eval.ReplacedLatest(v.Dataset, r, outPath)
	kept := ""
	if outPath == "" && len(dest.Paths) == 1 {
		kept = eval.KeptLatest(v.Dataset, r)
	}
	paths, err := eval.WriteRunReport(r, v.Story.Dir, dest)
	if err != nil {
		return usagef("%v", err)
	}
	if err := writeRenders(c, r, renders, ""); err != nil {
		return err
	}
	text := printableWriter{c.OutOrStdout()}
	if asJSON {
		text = printableWriter{c.ErrOrStderr()}
		if err := writeJSON(c.OutOrStdout(), r); err != nil {
			return err
		}
	}
	eval.WriteReportText(text, r)
	for _, p := range paths {
		fmt.Fprintf(text, "wrote %s\n", p)
	}
	if kept != "" {
		fmt.Fprintf(text, "kept %s: %s\n", filepath.Join(filepath.Dir(paths[0]), "latest.json"), kept)
	}
	if prev != nil && prev.Call == r.Call {
		fmt.Fprintln(text, eval.SinceLine(prev, r))
	}
	if err := v.Verdict(r); err != nil {
		return findingf("%v", err)
	}
	return nil
}

func newEvalCheckCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:     "check <story-dir>",
		Short:   "CI gate: exit 1 when a pinned selection's evidence is missing, stale, failing, or its candidate did not pass",
		Example: "  kitsoki eval check .                 # exit 1 when pinned evidence is missing, stale or failing\n  kitsoki eval check . --format github",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			f, err := diag.ParseFormat(format)
			if err != nil {
				return usagef("--format: %v", err)
			}
			ds, err := eval.Check(args[0], &eval.StoryLoader{})
			if err != nil {
				return usagef("%v", err)
			}
			// snippets read through the story's project root, as the check did
			source := diag.RootSource(nil, story.Options{}.ManifestRoot(args[0]))
			if err := writeDiags(c, f, ds, diagTool(f), source); err != nil {
				return err
			}
			out := c.OutOrStdout()
			if diag.HasErrors(ds) {
				errs, _ := diag.Count(ds)
				if f == diag.FormatHuman {
					fmt.Fprintf(out, "eval check: %d %s\n", errs, human.Plural(errs, "problem", "problems"))
				}
				return silentExit(exitFinding)
			}
			if f == diag.FormatHuman {
				fmt.Fprintln(out, "eval check: every pinned selection has fresh, passing evidence")
			}
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "human", "output format: human, json, github, sarif or codeclimate")
	return c
}

// evalLoadErr is exit 1 for a file read that does not parse, 2 for one
// that cannot be read.
func evalLoadErr(err error) error {
	if errors.Is(err, eval.ErrSyntax) {
		return findingf("%v", err)
	}
	return usagef("%v", err)
}

// loadDataset loads the dataset at path, refusing an output (flag out)
// that would overwrite it.
func loadDataset(path, flag, out string) (*eval.Dataset, error) {
	if err := refuseDashOut(flag, out); err != nil {
		return nil, err
	}
	d, err := eval.LoadDataset(path)
	if err != nil {
		return nil, evalLoadErr(err)
	}
	return d, checkNotInput(flag, out, path)
}

// requireValid prints the findings of a dataset (its warnings too when
// warnings is set), each naming its file and place, and fails with a
// finding when it does not validate.
func requireValid(stderr io.Writer, v *eval.Validation, warnings bool) error {
	fs := v.Findings
	if !warnings {
		fs = slices.DeleteFunc(slices.Clone(fs), func(f eval.Finding) bool { return f.Severity != diag.Error })
	}
	eval.WriteFindings(printableWriter{stderr}, v.Named(fs))
	if v.OK() {
		return nil
	}
	return findingf("eval validation failed")
}

// refuseDashOut refuses "-" for -o and --html, which write a file: it
// was taken as a file named "-" in the working directory, where --junit -
// and --markdown - print on standard output.
func refuseDashOut(flag, out string) error {
	if out != "-" {
		return nil
	}
	if flag == "--html" {
		return usagef("--html -: the page is written to a file, not to standard output; name a file, e.g. --html report.html")
	}
	return usagef("%s -: the report is written to a file, not to standard output; name a file (%s report.json), or print the report with eval run --json or kitsoki eval show REPORT --json", flag, flag)
}

// checkNotInput refuses an output path that names the input file, which
// would be overwritten before (or while) it is used.
func checkNotInput(flag, out, in string) error {
	if out == "" || out == "-" || in == "" {
		return nil
	}
	ost, err := os.Stat(out)
	if err != nil {
		return nil
	}
	if ist, err := os.Stat(in); err == nil && os.SameFile(ost, ist) {
		return usagef("%s %s: is also an input of this command (a dataset or report it reads); write the output to another file", flag, out)
	}
	return nil
}

// listRefusedText is eval list's closing finding: how many datasets the
// existing engine's list would stop at, which (the count is of them, not
// of every WARN line: an empty dataset or a report that does not parse
// is warned about but listed on, as upstream lists it), and the fix.
func listRefusedText(refused []string, warned int) string {
	others := ""
	if n := warned - len(refused); n > 0 {
		others = fmt.Sprintf("; the other %d WARN line(s) are listed past, as the existing engine lists past them", n)
	}
	return fmt.Sprintf("eval list: %d dataset(s) could not be read: %s (their WARN lines above name where%s); fix them: the existing engine's eval list stops at such a dataset, exit 1",
		len(refused), printableMessage(strings.Join(refused, ", ")), others)
}
