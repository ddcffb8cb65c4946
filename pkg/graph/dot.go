package graph

import (
	"bufio"
	"io"
	"strings"
)

// Options tune the renderers.
type Options struct {
	Coverage Coverage // when set, colours what was reached, partly or not
}

// Colours of the drawing, shared by the DOT and Mermaid renderers.
const (
	colorExit       = "#6a3d9a"
	colorOnError    = "#c0392b"
	colorTimeout    = "#1f5fa8"
	colorOnComplete = "#2e7d32"
	colorMissing    = "#c0392b"
	colorStub       = "#777777"

	fillReached   = "#d4edda"
	fillUnreached = "#f8d7da"
	fillPartly    = "#fff3cd"
	lineReached   = "#2e7d32"
	lineUnreached = "#c0392b"
	linePartly    = "#b7791f"
)

// edgeColor is the colour of each kind of move but an arc.
var edgeColor = map[EdgeKind]string{EdgeExit: colorExit, EdgeOnError: colorOnError, EdgeTimeout: colorTimeout, EdgeOnComplete: colorOnComplete}

// WriteDOT writes g as a Graphviz digraph, clusters with an invisible
// anchor node for the edges that enter or leave them.
func WriteDOT(w io.Writer, g *Graph, o Options) error {
	bw := bufio.NewWriter(w)
	d := &dotWriter{lineWriter: lineWriter{bw}, o: o, shown: shownAnchors(g)}
	d.line(0, "digraph kitsoki {")
	d.line(1, "graph [label="+dotQuote([]string{g.Title})+", labelloc=t, fontname=\"Helvetica\", rankdir=LR, compound=true, newrank=true];")
	d.line(1, "node [fontname=\"Helvetica\", fontsize=11, shape=box, style=rounded];")
	d.line(1, "edge [fontname=\"Helvetica\", fontsize=9];")
	if g.Start != nil {
		d.line(1, "start [shape=circle, style=filled, fillcolor=black, width=0.15, fixedsize=true, label=\"\"];")
	}
	for _, n := range g.Top {
		d.node(1, n)
	}
	if g.Start != nil {
		d.line(1, "start -> "+g.Start.ID+d.attrs(clusterEnds(nil, g.Start))+";")
	}
	for _, e := range g.Edges {
		d.edge(e)
	}
	d.line(0, "}")
	return bw.Flush()
}

type dotWriter struct {
	lineWriter
	o Options
	// shown holds the clusters whose anchor an edge ends at visibly
	// (shownAnchors), drawn as a small dot.
	shown map[*Node]bool
}

// shownAnchors lists the clusters an edge starts or ends at without being
// clipped at the border (an arc to its own child, a stay arc).
func shownAnchors(g *Graph) map[*Node]bool {
	out := map[*Node]bool{}
	for _, e := range g.Edges {
		if e.tail.Cluster() && e.head.within(e.tail) {
			out[e.tail] = true
		}
		if e.head.Cluster() && e.tail.within(e.head) {
			out[e.head] = true
		}
	}
	return out
}

// lineWriter writes the lines of a drawing, indented two spaces a level.
type lineWriter struct{ w *bufio.Writer }

func (l lineWriter) line(indent int, s string) {
	for range indent {
		l.w.WriteString("  ")
	}
	l.w.WriteString(s)
	l.w.WriteByte('\n')
}

// attrs formats an attribute list (" [k=v, ...]"; "" when empty).
func (d *dotWriter) attrs(kv []string) string {
	if len(kv) == 0 {
		return ""
	}
	return " [" + strings.Join(kv, ", ") + "]"
}

func (d *dotWriter) node(indent int, n *Node) {
	if n.Cluster() {
		d.line(indent, "subgraph cluster_"+n.ID+" {")
		style := "rounded"
		switch n.Kind {
		case KindParallel:
			style = "dashed,rounded"
		case KindImport:
			style = "rounded,bold"
		}
		kv := []string{"label=" + dotQuote(nodeLabel(n)), "labeljust=l"}
		if n.Kind == KindImport {
			kv = append(kv, "color=\""+colorExit+"\"")
		}
		if n.Initial || n.Root {
			kv = append(kv, "penwidth=2")
		}
		if fill := fillOf[NodeReach(d.o.Coverage, n)]; fill != "" {
			style += ",filled"
			kv = append(kv, "fillcolor=\""+fill+"\"")
		}
		kv = append(kv, "style=\""+style+"\"")
		d.line(indent+1, strings.Join(kv, "; ")+";")
		if d.shown[n] {
			d.line(indent+1, n.ID+" [shape=point, width=0.08, color=\""+colorStub+"\", label=\"\"];")
		} else {
			d.line(indent+1, n.ID+" [shape=point, style=invis, width=0.01, height=0.01, fixedsize=true, label=\"\"];")
		}
		for _, c := range n.Children {
			d.node(indent+1, c)
		}
		d.line(indent, "}")
		return
	}
	kv := []string{"label=" + dotQuote(nodeLabel(n))}
	style := "rounded"
	switch n.Kind {
	case KindCollapsed:
		kv = append(kv, "shape=box3d")
		style = ""
		switch n.Was {
		case KindParallel:
			style = "dashed"
		case KindImport:
			kv = append(kv, "color=\""+colorExit+"\"")
		}
	case KindExit:
		kv = append(kv, "shape=doubleoctagon", "color=\""+colorExit+"\"")
		style = ""
	case KindDynamic:
		kv = append(kv, "shape=parallelogram")
		style = "dashed"
	case KindMissing:
		kv = append(kv, "color=\""+colorMissing+"\"", "fontcolor=\""+colorMissing+"\"")
		style = "dashed"
	case KindStub:
		kv = append(kv, "color=\""+colorStub+"\"", "fontcolor=\""+colorStub+"\"")
		style = "dashed,rounded"
	}
	if n.Terminal {
		kv = append(kv, "peripheries=2")
	}
	if n.Initial || n.Root {
		kv = append(kv, "penwidth=2")
	}
	if fill := fillOf[NodeReach(d.o.Coverage, n)]; fill != "" {
		style = strings.TrimPrefix(style+",filled", ",")
		kv = append(kv, "fillcolor=\""+fill+"\"")
	}
	switch style {
	case "rounded": // the default
	case "":
		kv = append(kv, "style=solid")
	default:
		kv = append(kv, "style=\""+style+"\"")
	}
	d.line(indent, n.ID+d.attrs(kv)+";")
}

func (d *dotWriter) edge(e *Edge) {
	kv := clusterEnds(e.tail, e.head)
	if l := edgeLabel(e); len(l) > 0 {
		kv = append(kv, "label="+dotQuote(l))
	}
	kv = append(kv, dotEdgeStyle[e.Kind]...)
	color := edgeColor[e.Kind]
	if c := lineOf[EdgeReach(d.o.Coverage, e)]; c != "" {
		color = c
		kv = append(kv, "penwidth=2")
	}
	if color != "" {
		kv = append(kv, "color=\""+color+"\"", "fontcolor=\""+color+"\"")
	}
	d.line(1, e.tail.ID+" -> "+e.head.ID+d.attrs(kv)+";")
}

// dotEdgeStyle is the DOT style of each kind of move but an arc.
var dotEdgeStyle = map[EdgeKind][]string{EdgeExit: {"style=bold"}, EdgeOnError: {"style=dashed"}, EdgeTimeout: {"style=dotted"}, EdgeOnComplete: {"style=dashed", "arrowhead=vee"}}

// clusterEnds clips an edge at the border of a cluster it enters or
// leaves, unless it joins the cluster to its inside (Graphviz cannot).
func clusterEnds(tail, head *Node) []string {
	var kv []string
	if tail != nil && tail.Cluster() && !head.within(tail) {
		kv = append(kv, "ltail=cluster_"+tail.ID)
	}
	if head.Cluster() && (tail == nil || !tail.within(head)) {
		kv = append(kv, "lhead=cluster_"+head.ID)
	}
	return kv
}

// dotQuote quotes lines as one DOT string: backslashes and quotes escaped
// (no Graphviz escape is read from the story's text), lines joined by \n.
func dotQuote(lines []string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i, l := range lines {
		if i > 0 {
			sb.WriteString(`\n`)
		}
		l = oneLine(l)
		for k, r := range l {
			switch {
			case r == '\\' || r == '"':
				sb.WriteByte('\\')
			case r == '#' && startsMarker(l[k:]):
				sb.WriteString("&#35;") // Graphviz draws it as '#'; see ci_marker.go
				continue
			}
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// fillOf and lineOf are the colours of what a coverage profile says.
var (
	fillOf = map[Reach]string{Reached: fillReached, Unreached: fillUnreached, PartlyReached: fillPartly}
	lineOf = map[Reach]string{Reached: lineReached, Unreached: lineUnreached, PartlyReached: linePartly}
)
