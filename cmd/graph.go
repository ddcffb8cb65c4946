package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"kitsoki/internal/atomicfile"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/graph"
	"kitsoki/pkg/story"
	"kitsoki/pkg/trace"
)

func init() { register("graph", newGraphCmd) }

func newGraphCmd() *cobra.Command {
	var (
		format, state, out, root string
		depth                    int
	)
	c := &cobra.Command{
		Use:   "graph STORY",
		Short: "Draw a story's state machine (after imports and phases) as Mermaid, Graphviz DOT or SVG",
		Example: "  kitsoki graph examples/ci-triage                      # Mermaid, for a ```mermaid block on GitHub\n" +
			"  kitsoki graph examples/ci-triage --format dot -o machine.dot  # then: dot -Tpng machine.dot -o machine.png\n" +
			"  kitsoki graph examples/ci-triage --format svg -o machine.svg\n" +
			"  kitsoki graph big-story --depth 1                     # top-level states only, compounds collapsed\n" +
			"  kitsoki graph big-story --state review --depth 2      # the subtree under review, two levels deep",
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

Nothing is run and nothing is written but the drawing (standard output, or -o).

Exit status: 0 drawn, 1 the story does not load, 2 usage error or Graphviz
missing for --format svg.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runGraph(c.OutOrStdout(), c.ErrOrStderr(), args[0], graphFlags{format: format, state: state, depth: depth, out: out, root: root}, c)
		},
	}
	c.Flags().StringVar(&format, "format", "mermaid", "output `FORMAT`: mermaid, dot or svg")
	c.Flags().StringVar(&state, "state", "", "draw only the subtree under the state at `PATH` (dotted)")
	c.Flags().IntVar(&depth, "depth", 0, "draw `N` levels of states, collapsing deeper compounds into one node (0: all)")
	c.Flags().StringVarP(&out, "output", "o", "", "write the drawing to `FILE` (default: standard output)")
	addRootFlag(c, &root)
	return c
}

type graphFlags struct {
	format, state, out, root string
	depth                    int
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
	if err != nil {
		var le *compose.LoadError
		var fe *fold.Error
		switch {
		case errors.As(err, &le):
			_ = diag.WriteHuman(stderr, le.Diagnostics, diag.HumanOptions{})
			return findingf("%s: the story does not load (%d error(s)); see `kitsoki validate %s`", path, len(le.Diagnostics), path)
		case errors.As(err, &fe):
			return findingf("%s: %v", path, err)
		}
		return findingf("%s: %v", path, err)
	}
	if g, err = g.View(graph.View{State: f.state, Depth: f.depth}); err != nil {
		return usagef("%v", err)
	}
	var buf bytes.Buffer
	switch f.format {
	case "mermaid":
		err = graph.WriteMermaid(&buf, g, graph.Options{})
		if why := graph.MermaidTooBig(g, buf.Len()); why != "" {
			fmt.Fprintf(stderr, "kitsoki: warning: %s: %s, so GitHub and most Markdown viewers will not draw it; narrow it with --depth or --state, or use --format svg\n", trace.Printable(path), why)
		}
	case "dot":
		err = graph.WriteDOT(&buf, g, graph.Options{})
	case "svg":
		var svg []byte
		svg, err = graph.RenderSVG(c.Context(), g, graph.Options{})
		var dm *graph.DotMissingError
		if errors.As(err, &dm) {
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
	if err := atomicfile.Write(f.out, buf.Bytes(), 0o644); err != nil {
		return usagef("-o %s: %v", f.out, err)
	}
	return nil
}
