package graph

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestCIMarkersDefused: a title, a state and a guard holding the older
// workflow command form ("##[error]", "##vso[") mid-line reach neither
// the DOT, the Mermaid nor the SVG raw (CI runners obey it anywhere in a
// line and a drawing goes to stdout by default), and the real dot still
// draws the text as written (redteam6: all three printed it raw).
func TestCIMarkersDefused(t *testing.T) {
	const title = "t ##vso[task.setvariable variable=PATH]/tmp/evil"
	const guard = "'###[error]forged ##teamcity[x]' != ''"
	a := &Node{ID: "s_a", Path: "a ##[warning]w", Label: "a ##[warning]w", Kind: KindState}
	b := &Node{ID: "s_b", Path: "b", Label: "b", Kind: KindState, Terminal: true}
	g := &Graph{Title: title, Top: []*Node{a, b}, Start: a,
		Edges: []*Edge{{Kind: EdgeArc, Intent: "go", Guard: guard, tail: a, head: b}}}
	var dot, mmd bytes.Buffer
	if err := WriteDOT(&dot, g, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteMermaid(&mmd, g, Options{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"dot": dot.String(), "mermaid": mmd.String()} {
		noMarker(t, name, out)
	}
	if !strings.Contains(mmd.String(), `title: "t \u0023#vso[task.setvariable`) {
		t.Errorf("the Mermaid title lost its text:\n%s", mmd.String())
	}
	dotProgram(t)
	svg, err := RenderSVG(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	noMarker(t, "svg", string(svg))
	checkSVG(t, "svg", svg)
	text := svgText(t, svg)
	for _, want := range []string{"a ##[warning]w", "###[error]forged", "##teamcity[x]"} {
		if !strings.Contains(text, want) {
			t.Errorf("the SVG does not draw %q; its text: %q", want, text)
		}
	}
}

func noMarker(t *testing.T, name, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "##[") || strings.Contains(line, "##vso[") || strings.Contains(line, "##teamcity[") {
			t.Errorf("%s: a line holds a workflow command a CI runner obeys: %q", name, line)
		}
	}
}

// svgText is the character data of the SVG, references resolved.
func svgText(t *testing.T, svg []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Entity = xml.HTMLEntity
	var sb strings.Builder
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return sb.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			sb.Write(cd)
			sb.WriteByte(' ')
		}
	}
}
