package cmd

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"kitsoki/pkg/eval"
)

// evalRenders are the --junit and --markdown renderings of a report that
// eval run and eval show write besides their own output.
type evalRenders struct {
	junit, markdown string
}

func (o *evalRenders) addFlags(c *cobra.Command, stdoutOK bool) {
	dash := ""
	if stdoutOK {
		dash = " (- for standard output, in place of the summary)"
	}
	c.Flags().StringVar(&o.junit, "junit", "", "write the report as JUnit XML to `FILE`, one test case per candidate, failed when the adherence bar refused it"+dash)
	c.Flags().StringVar(&o.markdown, "markdown", "", "write a Markdown summary (decision, candidates table, failure samples) for a pull-request comment to `FILE`"+dash)
}

// check refuses, before any work, outputs that cannot be written: both to
// standard output, - where the command prints its own summary, a
// directory, a missing parent, an input, or a path a symlink leads out of
// the project.
func (o evalRenders) check(stdoutOK bool, inputs ...string) error {
	if o.junit == "-" && o.markdown == "-" {
		return usagef("--junit - and --markdown -: only one output can go to standard output; write the other to a file")
	}
	for _, fp := range [][2]string{{"--junit", o.junit}, {"--markdown", o.markdown}} {
		flag, p := fp[0], fp[1]
		if p == "" {
			continue
		}
		if p == "-" {
			if !stdoutOK {
				return usagef("%s -: eval run prints its summary on standard output; write to a file, or run kitsoki eval show REPORT %s -", flag, flag)
			}
			continue
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return usagef("%s %s: is a directory; name a file, e.g. %s %s", flag, p, flag, filepath.Join(p, "eval"+map[string]string{"--junit": ".xml", "--markdown": ".md"}[flag]))
		}
		if dir := filepath.Dir(p); dir != "" {
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return usagef("%s %s: directory %s does not exist; create it first", flag, p, dir)
			}
		}
		for _, in := range inputs {
			if err := checkNotInput(flag, p, in); err != nil {
				return err
			}
		}
		if err := checkOutInside(flag, p); err != nil {
			return err
		}
	}
	return nil
}

// toStdout reports whether a rendering replaces the command's summary.
func (o evalRenders) toStdout() bool { return o.junit == "-" || o.markdown == "-" }

// write writes the renderings of r, each file atomically.
func (o evalRenders) write(c *cobra.Command, r *eval.Report) error {
	if o.junit != "" {
		b, err := eval.RenderJUnit(r)
		if err != nil {
			return err
		}
		if err := o.put(c, "--junit", o.junit, b); err != nil {
			return err
		}
	}
	if o.markdown != "" {
		if err := o.put(c, "--markdown", o.markdown, eval.RenderMarkdown(r)); err != nil {
			return err
		}
	}
	return nil
}

func (o evalRenders) put(c *cobra.Command, flag, path string, b []byte) error {
	if path == "-" {
		_, err := c.OutOrStdout().Write(b)
		return err
	}
	if err := eval.WriteFileAtomic(path, b); err != nil {
		return usagef("%s: %v", flag, err)
	}
	return nil
}
