package graph

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

// requireGraphviz names the environment variable `make test` sets after
// installing Graphviz: there a missing dot fails the test instead of
// skipping it.
const requireGraphviz = "KITSOKI_REQUIRE_GRAPHVIZ"

// dotProgram returns the path of Graphviz's dot, skipping the test (or
// failing it where make test installed Graphviz) when it is missing.
func dotProgram(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("dot")
	if err != nil {
		if os.Getenv(requireGraphviz) != "" {
			t.Fatalf("Graphviz's dot is not on PATH although %s is set (make test installs Debian's graphviz package)", requireGraphviz)
		}
		t.Skip("Graphviz's dot is not installed (apt-get install graphviz; make test installs it): the DOT is not rendered")
	}
	return p
}

// renderDOT renders text with the real dot and checks that Graphviz
// accepted it without a warning and wrote a well-formed SVG document.
func renderDOT(t *testing.T, dot, name, text string) {
	t.Helper()
	cmd := exec.Command(dot, "-Tsvg")
	cmd.Stdin = strings.NewReader(text)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: dot failed: %v\n%s", name, err, errb.String())
	}
	if errb.Len() > 0 {
		t.Errorf("%s: dot warned:\n%s", name, errb.String())
	}
	checkSVG(t, name, out.Bytes())
}

// checkSVG checks that b is a well-formed XML document whose root is svg.
func checkSVG(t *testing.T, name string, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	dec.Entity = xml.HTMLEntity
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: the SVG is not well-formed XML: %v", name, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("%s: the document's root is %q, want svg", name, root)
	}
}

// checkGolden compares got with testdata/golden/<name>, rewriting it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.CheckString(t, filepath.Join("testdata", "golden", filepath.FromSlash(name)), got)
}

// drawing is one graph written in both formats.
type drawing struct {
	name     string
	g        *Graph
	dot, mmd string
}

func draw(t *testing.T, name string, g *Graph, o Options) drawing {
	t.Helper()
	var d, m bytes.Buffer
	if err := WriteDOT(&d, g, o); err != nil {
		t.Fatal(err)
	}
	if err := WriteMermaid(&m, g, o); err != nil {
		t.Fatal(err)
	}
	return drawing{name: name, g: g, dot: d.String(), mmd: m.String()}
}

func load(t *testing.T, path string) *Graph {
	t.Helper()
	// The corpus's stories share files across story directories: the
	// corpus is one tree, as `kitsoki validate corpus/...` names it.
	g, err := Load(path, story.Options{Trees: []string{storytest.CorpusDir()}})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return g
}

func view(t *testing.T, g *Graph, v View) *Graph {
	t.Helper()
	out, err := g.View(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
