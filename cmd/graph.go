package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"kitsoki/internal/atomicfile"
	"kitsoki/internal/safefile"
	"kitsoki/internal/termsafe"
	"kitsoki/pkg/coverage"
	"kitsoki/pkg/graph"
	"kitsoki/pkg/story"
)

func init() { register("graph", newGraphCmd) }

func newGraphCmd() *cobra.Command {
	var f graphFlags
	c := &cobra.Command{
		Use:   "graph STORY",
		Short: "Draw a story's state machine (after imports and phases) as Mermaid, Graphviz DOT or SVG",
		Example: "  kitsoki graph examples/ci-triage                      # Mermaid, for a ```mermaid block on GitHub\n" +
			"  kitsoki graph examples/ci-triage --format dot -o machine.dot  # then: dot -Tpng machine.dot -o machine.png\n" +
			"  kitsoki graph examples/ci-triage --format svg -o machine.svg\n" +
			"  kitsoki graph big-story --depth 1                     # top-level states only, compounds collapsed\n" +
			"  kitsoki graph big-story --state review --depth 2      # the subtree under review, two levels deep\n" +
			"  kitsoki test my-story --coverprofile cover.json && kitsoki graph my-story --coverprofile cover.json",
		Long: `Graph draws STORY (a story directory or its app.yaml) as the engine runs it:
imports folded in, phases expanded. Compound and parallel states and imported
children are clusters; each arc is labelled with its intent and guard; exits,
on_error redirects, timeouts and on_complete targets each have their own style;
the root state is marked by a start dot.

--format mermaid (default) writes a Mermaid flowchart (renders on GitHub and in
most Markdown viewers inside a mermaid code block); dot writes Graphviz DOT;
svg runs Graphviz's dot, which must be on PATH.

For big stories, --state PATH draws only the subtree under a state (arcs that
cross its border end at stubs) and --depth N draws N levels of states and
collapses the compounds on the last level into one node each.

--coverprofile FILE colours the drawing with a JSON coverage profile (kitsoki
test --coverprofile FILE --cover-format json, or .kitsoki/coverage.json): the
states and moves the fixtures reached in green, those they never reached in
red, a collapsed node or merged edge that holds both in amber. Run it from the
directory kitsoki test ran in (the profile's paths are relative to it).

Nothing is run and nothing is written but the drawing (standard output, or -o).

Exit status: 0 drawn, 1 the story does not load, 2 usage error or Graphviz
missing for --format svg.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runGraph(c.OutOrStdout(), c.ErrOrStderr(), args[0], f, c)
		},
	}
	c.Flags().StringVar(&f.format, "format", "mermaid", "output `FORMAT`: mermaid, dot or svg")
	c.Flags().StringVar(&f.state, "state", "", "draw only the subtree under the state at `PATH` (dotted)")
	c.Flags().IntVar(&f.depth, "depth", 0, "draw `N` levels of states, collapsing deeper compounds into one node (0: all)")
	c.Flags().StringVarP(&f.out, "output", "o", "", "write the drawing to `FILE` (default: standard output)")
	c.Flags().StringVar(&f.cover, "coverprofile", "", "colour what the fixtures reached and never reached, from the JSON coverage profile `FILE` (kitsoki test --coverprofile FILE --cover-format json)")
	addRootFlag(c, &f.root)
	return c
}

type graphFlags struct {
	format, state, out, root, cover string
	depth                           int
}

func runGraph(stdout, stderr io.Writer, path string, f graphFlags, c *cobra.Command) error {
	switch f.format {
	case "mermaid", "dot", "svg":
	default:
		return usagef("--format %s: unknown format; use mermaid, dot or svg", f.format)
	}
	if f.depth < 0 {
		return usagef("--depth %d: must be 0 (every level) or more", f.depth)
	}
	if err := checkStoryArg(path); err != nil {
		return err
	}
	g, err := graph.Load(path, story.Options{Root: f.root})
	if msg, _, ok := notLoaded(stderr, path, err); ok {
		return findingf("%s", msg)
	} else if err != nil {
		return findingf("%s: %v", path, err)
	}
	var o graph.Options
	if f.cover != "" {
		cov, err := graphCoverage(stderr, f.cover, path, g)
		if err != nil {
			return err
		}
		o.Coverage = cov
	}
	if g, err = g.View(graph.View{State: f.state, Depth: f.depth}); err != nil {
		return usagef("%v", err)
	}
	var buf bytes.Buffer
	switch f.format {
	case "mermaid":
		err = graph.WriteMermaid(&buf, g, o)
		if why := graph.MermaidTooBig(g, buf.Len()); why != "" {
			fmt.Fprintf(stderr, "kitsoki: warning: %s: %s, so GitHub and most Markdown viewers will not draw it; narrow it with --depth or --state, or use --format svg\n", termsafe.Printable(path), why)
		}
	case "dot":
		err = graph.WriteDOT(&buf, g, o)
	case "svg":
		var svg []byte
		svg, err = graph.RenderSVG(c.Context(), g, o)
		if _, ok := errors.AsType[*graph.DotMissingError](err); ok {
			return usagef("%v", err)
		}
		buf.Write(svg)
	}
	if err != nil {
		return findingf("%s: %v", path, err)
	}
	if f.out == "" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	if err := checkOutInside("-o", f.out); err != nil {
		return err
	}
	if err := atomicfile.Write(f.out, buf.Bytes(), 0o644); err != nil {
		return usagef("-o %s: %v", f.out, err)
	}
	return nil
}

// graphCoverage reads --coverprofile's JSON profile and matches it against
// g, taking relative paths from the working directory, else from DIR of
// DIR/.kitsoki/coverage.json; a profile that knows nothing is warned about.
func graphCoverage(stderr io.Writer, file, story string, g *graph.Graph) (graph.Coverage, error) {
	data, err := safefile.ReadFile(file, coverage.MaxJSON)
	if err != nil {
		return nil, usagef("--coverprofile %s: %s", file, safefile.Reason(err))
	}
	if kind := coverage.SniffOther(data); kind != "" {
		return nil, usagef("--coverprofile %s: %s profiles count lines, not the states and moves a drawing colours; write a JSON one with kitsoki test --coverprofile FILE --cover-format json", file, kind)
	}
	p, err := coverage.ParseJSON(file, data)
	if err != nil {
		return nil, usagef("--coverprofile %v", err)
	}
	var bases []string
	if wd, err := os.Getwd(); err == nil {
		bases = append(bases, wd)
	}
	if abs, err := filepath.Abs(file); err == nil && filepath.Base(filepath.Dir(abs)) == ".kitsoki" {
		bases = append(bases, filepath.Dir(filepath.Dir(abs)))
	}
	var gc *coverage.GraphCoverage
	for _, base := range bases {
		if gc = coverage.NewGraphCoverage(p, base, g); gc.Known > 0 {
			return gc, nil
		}
	}
	if gc == nil {
		return nil, nil
	}
	fmt.Fprintf(stderr, "kitsoki: warning: --coverprofile %s knows none of %s's states and moves, so nothing is coloured: run kitsoki graph from the directory kitsoki test wrote it in, with the same story\n", termsafe.Printable(file), termsafe.Printable(story))
	return gc, nil
}
