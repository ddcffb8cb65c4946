package coverage

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/engine"
	"kitsoki/pkg/graph"
	"kitsoki/pkg/story"
)

// -v's hints cost output in proportion to the moves listed: a chain of
// 3,000 states (190 KB of story) printed a kitsoki run command of i
// intents under its i-th arc, 50 MB in all (5,000 states: 150 MB, 1 GB of
// memory). A path past MaxHintBytes is told by its length, and the story's
// own fixture (initial_state:) is named as the way to start there.
func TestUnreachedHintsOfALongChainAreBounded(t *testing.T) {
	const n = 3000
	var src strings.Builder
	src.WriteString("app: {id: chain}\nintents:\n  go: {}\nroot: s0\nstates:\n")
	for i := range n - 1 {
		fmt.Fprintf(&src, "  s%d:\n    on:\n      go: [{target: s%d}]\n", i, i+1)
	}
	fmt.Fprintf(&src, "  s%d: {terminal: true}\n", n-1)
	dir := t.TempDir()
	app := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(app, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(dir, story.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := NewHints()
	h.AddStory("chain", "", g)
	f := &File{Path: app}
	for _, e := range g.Edges {
		f.Items = append(f.Items, Item{Kind: engine.ReachArc, Line: e.Pos.Line, Col: e.Pos.Col, State: e.From, Label: "on go"})
	}
	var b bytes.Buffer
	WriteUnreachedHints(&b, &Profile{Files: []*File{f}}, h, "")
	out := b.String()
	if b.Len() > 2<<20 {
		t.Errorf("the hints of %d unreached arcs are %d bytes, want under 2 MiB", n-1, b.Len())
	}
	for _, want := range []string{
		"\n      to reach s2: kitsoki run chain --intent go --intent go\n",
		fmt.Sprintf("\n      to reach s%d: %d intents from the root, a command over %d bytes; start a fixture there instead (initial_state:)\n", n-2, n-2, MaxHintBytes),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q line in the hints", want)
		}
	}
}

// A hint of few intents whose names or slots make it long is told the
// same way, however the bytes come.
func TestHintCommandPastTheBoundIsEmpty(t *testing.T) {
	long := strings.Repeat("x", MaxHintBytes)
	for _, h := range []Hint{
		{Story: "s", Found: true, Path: pathOf(long)},
		{Story: "s", Found: true, Path: pathOf("ask"), Slots: map[string][]string{"ask": {long}}},
		{Story: "s", Found: true, Path: pathOf(strings.Split(strings.Repeat("a,", 400)+"a", ",")...)},
	} {
		if got := h.Command(); got != "" {
			t.Errorf("a %d-intent path of %d bytes: command of %d bytes, want none", h.Path.Len(), h.Path.Bytes(), len(got))
		}
	}
	if got := (Hint{Story: "s", Found: true, Path: pathOf(strings.Repeat("x", 100))}).Command(); got == "" {
		t.Error("a short hint has no command")
	}
}

// pathOf is the path IntentPaths finds through a chain of states joined by
// one arc for each of intents, in order.
func pathOf(intents ...string) *graph.IntentPath {
	prev := &graph.Node{Path: "s0", Kind: graph.KindState}
	g := &graph.Graph{Top: []*graph.Node{prev}, Start: prev}
	for i, in := range intents {
		n := &graph.Node{Path: fmt.Sprintf("s%d", i+1), Kind: graph.KindState}
		g.Top = append(g.Top, n)
		g.Edges = append(g.Edges, &graph.Edge{Kind: graph.EdgeArc, From: prev.Path, To: n.Path, Intent: in})
		prev = n
	}
	return g.IntentPaths()[prev.Path]
}
