package graph

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Mermaid's default limits (GitHub's renderer keeps them).
const (
	MermaidMaxText  = 50000
	MermaidMaxEdges = 500
)

// MermaidTooBig says why a Mermaid drawing of size bytes of g will not
// render with Mermaid's default limits ("" when it will).
func MermaidTooBig(g *Graph, size int) string {
	edges := len(g.Edges)
	if g.Start != nil {
		edges++
	}
	switch {
	case size > MermaidMaxText:
		return fmt.Sprintf("the Mermaid text is %d characters, over Mermaid's limit of %d", size, MermaidMaxText)
	case edges > MermaidMaxEdges:
		return fmt.Sprintf("the drawing has %d edges, over Mermaid's limit of %d", edges, MermaidMaxEdges)
	}
	return ""
}

// WriteMermaid writes g as a Mermaid flowchart: subgraphs for clusters,
// one link style per kind of move, labels quoted (mermaidQuote).
func WriteMermaid(w io.Writer, g *Graph, o Options) error {
	bw := bufio.NewWriter(w)
	m := &mermaidWriter{lineWriter: lineWriter{bw}, o: o, classes: map[string][]string{}, linkStyles: map[string][]string{}}
	title, _ := json.Marshal(oneLine(g.Title)) // a YAML double-quoted string
	bw.WriteString("---\ntitle: " + yamlMarkers.Replace(string(title)) + "\n---\nflowchart LR\n")
	if g.Start != nil {
		m.line(1, `start((" "))`)
		m.class("start", "start")
	}
	for _, n := range g.Top {
		m.node(1, n)
	}
	if g.Start != nil {
		m.link("start --> "+g.Start.ID, "")
	}
	for _, e := range g.Edges {
		m.edge(e)
	}
	m.styles()
	return bw.Flush()
}

type mermaidWriter struct {
	lineWriter
	o Options
	// classes maps a class name to its ids; linkStyles a style to the
	// indexes of its links.
	classes    map[string][]string
	links      int
	linkStyles map[string][]string
}

func (m *mermaidWriter) class(name, id string) { m.classes[name] = append(m.classes[name], id) }

func (m *mermaidWriter) node(indent int, n *Node) {
	label := mermaidQuote(nodeLabel(n))
	if n.Cluster() {
		m.line(indent, "subgraph "+n.ID+" ["+label+"]")
		for _, c := range n.Children {
			m.node(indent+1, c)
		}
		m.line(indent, "end")
	} else {
		br, ok := mermaidShapes[n.Kind]
		if !ok {
			br = [2]string{"(", ")"}
			if n.Terminal {
				br = [2]string{"([", "])"}
			}
		}
		m.line(indent, n.ID+br[0]+label+br[1])
		if n.Terminal {
			m.class("terminal", n.ID)
		}
	}
	kind := n.Kind
	if kind == KindCollapsed {
		kind = n.Was
	}
	if c := kindClass[kind]; c != "" {
		m.class(c, n.ID)
	}
	if n.Root || n.Initial {
		m.class("initial", n.ID)
	}
	if c := reachClass[NodeReach(m.o.Coverage, n)]; c != "" {
		m.class(c, n.ID)
	}
}

func (m *mermaidWriter) edge(e *Edge) {
	arrow, color := "-.->", edgeColor[e.Kind]
	switch e.Kind {
	case EdgeArc:
		arrow = "-->"
	case EdgeExit:
		arrow = "==>"
	}
	width := ""
	if c := lineOf[EdgeReach(m.o.Coverage, e)]; c != "" {
		color, width = c, ",stroke-width:3px"
	}
	label := ""
	if l := edgeLabel(e); len(l) > 0 {
		label = "|" + mermaidQuote(l) + "|"
	}
	style := ""
	if color != "" {
		style = "stroke:" + color + ",color:" + color + width
	}
	m.link(e.tail.ID+" "+arrow+label+" "+e.head.ID, style)
}

// link writes one link and remembers its style (by index).
func (m *mermaidWriter) link(s, style string) {
	m.line(1, s)
	if style != "" {
		m.linkStyles[style] = append(m.linkStyles[style], strconv.Itoa(m.links))
	}
	m.links++
}

// mermaidShapes are the brackets around a label by kind of node (a
// state's are round).
var mermaidShapes = map[NodeKind][2]string{KindCollapsed: {"[[", "]]"}, KindExit: {"{{", "}}"}, KindDynamic: {"[/", "/]"}, KindMissing: {">", "]"}, KindStub: {">", "]"}}

// kindClass is the class of a kind of node.
var kindClass = map[NodeKind]string{KindParallel: "parallel", KindImport: "import", KindExit: "exit", KindMissing: "missing", KindStub: "stub"}

// reachClass is the class of what a coverage profile says of a node.
var reachClass = map[Reach]string{Reached: "reached", Unreached: "unreached", PartlyReached: "partly"}

// mermaidClasses are the class definitions, written only when used.
var mermaidClasses = [][2]string{
	{"start", "fill:#000,stroke:#000"},
	{"initial", "stroke-width:3px"},
	{"terminal", "stroke-width:3px,stroke-dasharray:2 2"},
	{"parallel", "stroke-dasharray:6 4"},
	{"import", "stroke:" + colorExit + ",stroke-width:2px"},
	{"exit", "stroke:" + colorExit + ",color:" + colorExit},
	{"missing", "stroke:" + colorMissing + ",color:" + colorMissing + ",stroke-dasharray:4 3"},
	{"stub", "stroke:" + colorStub + ",color:" + colorStub + ",stroke-dasharray:4 3"},
	{"reached", "fill:" + fillReached},
	{"unreached", "fill:" + fillUnreached + ",stroke:" + lineUnreached},
	{"partly", "fill:" + fillPartly},
}

func (m *mermaidWriter) styles() {
	for _, c := range mermaidClasses {
		ids := m.classes[c[0]]
		if len(ids) == 0 {
			continue
		}
		m.line(1, "classDef "+c[0]+" "+c[1])
		m.line(1, "class "+strings.Join(ids, ",")+" "+c[0])
	}
	for _, style := range slices.Sorted(maps.Keys(m.linkStyles)) {
		m.line(1, "linkStyle "+strings.Join(m.linkStyles[style], ",")+" "+style)
	}
}

// mermaidQuote quotes lines as one Mermaid string, lines joined by <br>:
// every character Mermaid could read as syntax is written as an entity
// code (#34; for ").
func mermaidQuote(lines []string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i, l := range lines {
		if i > 0 {
			sb.WriteString("<br>")
		}
		for _, r := range oneLine(l) {
			if r == ' ' || unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_-.,/()[]{}!?=+*'@$^~", r) {
				sb.WriteRune(r)
				continue
			}
			sb.WriteString("#" + strconv.Itoa(int(r)) + ";")
		}
	}
	if sb.Len() == 1 {
		sb.WriteByte(' ') // Mermaid refuses an empty label
	}
	sb.WriteByte('"')
	return sb.String()
}
