package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"kitsoki/internal/atomicfile"
	"kitsoki/pkg/coverage"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/graph"
	"kitsoki/pkg/testrun"
)

// coverFlags are kitsoki test's coverage flags (also on test merge).
type coverFlags struct {
	cover   bool
	profile string // --coverprofile
	format  string // --cover-format
	html    string // --cover-html
}

func (cf *coverFlags) add(c *cobra.Command, withCover bool) {
	fl := c.Flags()
	if withCover {
		fl.BoolVar(&cf.cover, "cover", false, "count what the fixtures reach and print a coverage summary (-v lists what they never reach)")
	}
	fl.StringVar(&cf.profile, "coverprofile", "", "write the coverage profile to `FILE` (implies --cover; format from --cover-format, else the extension: .json, .xml = cobertura, other = lcov)")
	fl.StringVar(&cf.format, "cover-format", "", "coverage profile format: lcov, cobertura or json (json is what kitsoki test merge and the editor read)")
	fl.StringVar(&cf.html, "cover-html", "", "write an HTML coverage report (each story file marked, a table per state) into `DIR` (implies --cover)")
}

// on reports whether coverage is wanted.
func (cf *coverFlags) on() bool { return cf.cover || cf.profile != "" || cf.html != "" }

// check refuses a --cover-format nothing can write, and an output whose
// directory does not exist.
func (cf *coverFlags) check() error {
	if !coverage.KnownFormat(cf.format) {
		return usagef("--cover-format %q: expected lcov, cobertura or json", cf.format)
	}
	if err := checkOutInside("--cover-html", cf.html); err != nil {
		return err
	}
	return checkOutDirs("--coverprofile", cf.profile)
}

// newCollector is a collector whose profile paths are relative to the
// working directory.
func newCollector() *coverage.Collector {
	base, _ := os.Getwd()
	return coverage.NewCollector(coverage.Options{Base: base})
}

// addStories registers every story with fixtures, before --shard, so that
// shard profiles merge to the unsharded one.
func addStories(col *coverage.Collector, runner *flowtest.Runner, files []*flowtest.File) {
	for _, app := range flowtest.Stories(files) {
		if ld, err := runner.Story(app); err == nil && ld.Machine != nil {
			col.Add(ld.Machine)
		}
	}
}

// writeCover prints the summary (and with hints the unreached parts) to
// text and writes the profile and HTML report.
func writeCover(stdout, text io.Writer, cf *coverFlags, p *coverage.Profile, hints *coverage.Hints, html coverage.HTMLOptions) error {
	fmt.Fprintln(text, coverage.SummaryLine(p.Summarize()))
	if hints != nil {
		base, _ := os.Getwd()
		coverage.WriteUnreachedHints(text, p, hints, base)
	}
	if cf.profile != "" {
		var b bytes.Buffer
		format := coverage.FormatFor(cf.profile, cf.format)
		if err := coverage.Write(&b, format, p); err != nil {
			return usagef("--coverprofile: %v", err)
		}
		var err error
		if cf.profile == "-" {
			err = writeProfileStdout(stdout, format, b.Bytes())
		} else {
			err = atomicfile.WriteBelow(testrun.OutRoot(), cf.profile, b.Bytes(), 0o644)
		}
		if err != nil {
			return usagef("--coverprofile %s: %v", cf.profile, err)
		}
	}
	if cf.html != "" {
		html.OutRoot = testrun.OutRoot()
		if err := coverage.WriteHTMLDir(cf.html, p, html); err != nil {
			return usagef("--cover-html %s: %v", cf.html, err)
		}
	}
	return nil
}

// writeProfileStdout prints a profile on stdout through termsafe; a file
// gets the bytes as they are.
func writeProfileStdout(stdout io.Writer, format string, b []byte) error {
	if format == coverage.FormatJSON {
		jw := &jsonWriter{w: stdout}
		if _, err := jw.Write(b); err != nil {
			return err
		}
		return jw.Flush()
	}
	_, err := printableWriter{stdout}.Write(b)
	return err
}

// pathHints draws every story with fixtures for -v's path hints, named as
// kitsoki run takes it.
func pathHints(files []*flowtest.File, root string, trees []string) *coverage.Hints {
	h := coverage.NewHints()
	wd, _ := os.Getwd()
	for _, app := range flowtest.Stories(files) {
		if g, runRoot, err := graph.LoadUnder(app, root, trees); err == nil {
			h.AddStory(runName(wd, app), runRoot, g)
		}
	}
	return h
}

// runName is how kitsoki run is to be given the story at app: its
// directory, relative to wd when below it.
func runName(wd, app string) string {
	dir := app
	if filepath.Base(app) == "app.yaml" {
		dir = filepath.Dir(app)
	}
	if abs, err := filepath.Abs(dir); err == nil && wd != "" {
		if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
			return rel
		}
		return abs
	}
	return dir
}
