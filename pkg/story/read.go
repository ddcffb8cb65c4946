package story

import (
	"errors"
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
)

// parseFile parses data, the bytes of file, reporting a syntax error.
func (l *loader) parseFile(file string, data []byte) *yaml.Node {
	l.sources[file] = data
	doc, syn := decodeYAML(data, l.opts.nodeFloor())
	if syn != nil {
		l.rep.Errf(Pos{File: file, Line: syn.line, Col: syn.col}, RuleYAMLSyntax, "YAML syntax error: %s", syn.msg)
		return nil
	}
	return doc
}

// syntaxError is a YAML decode error with its position (a key written as
// a mapping or a list is one: upstream's parser refuses the story, "found
// an invalid key for this map").
type syntaxError struct {
	line, col int
	msg       string
}

// decodeYAML decodes one YAML document of at most maxNodes nodes:
// yamlfast's tree when it takes the document, else yaml.v3's, whose errors
// are the ones reported.
func decodeYAML(data []byte, maxNodes int) (*yaml.Node, *syntaxError) {
	data = yaml12Directive(data)
	data, masked := yamlnode.MaskSlashEscapes(data) // "\/" reads as "/", as upstream
	doc, over, err := yamlnode.Decode(data, maxNodes)
	if over != nil {
		return nil, &syntaxError{line: over.Line, col: over.Col, msg: yamlnode.TreeNodesMsg("story file", maxNodes, treeNodesFix)}
	}
	if errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.DocumentNode}, nil
	}
	if err == nil {
		if masked {
			yamlnode.UnmaskSlashEscapes(doc)
		}
		// yamlfast takes no such key, so only a yaml.v3 tree can hold one
		if k := yamlnode.WrittenComplexKey(doc); k != nil {
			return nil, &syntaxError{line: k.Line, col: k.Column, msg: yamlnode.ComplexKeyMsg("story file")}
		}
		if k := yamlnode.FlowKeyTab(doc, data); k != nil {
			return nil, flowKeyTab(k)
		}
		return doc, nil
	}
	line, msg := yamlnode.ErrLine(err)
	col := 0
	if tl, tc := findTab(data); tl > 0 && (strings.Contains(msg, "tab") || tl == line || tl == line-1) {
		line, col = tl, tc
		msg = "tab character in indentation; YAML indentation must use spaces (" + msg + ")"
	}
	if col == 0 && strings.Contains(msg, "did not find expected key") {
		if l, c, fix := misindented(data, line); l > 0 {
			line, col, msg = l, c, msg+"; "+fix
		}
	}
	if line > 0 && col == 0 {
		col = 1
	}
	return nil, &syntaxError{line: line, col: col, msg: msg}
}

// treeNodesFix is how a story file of too many nodes is mended: a
// block-style states: mapping is parsed a batch of states at a time.
const treeNodesFix = "write states: as a block mapping (one state a line or more, which kitsoki reads a batch of states at a time) or move states to other files with include:"

// flowKeyTab is the refusal of a key that a tab sets apart in a flow
// mapping (conformance flow-key-tab).
func flowKeyTab(k *yaml.Node) *syntaxError {
	return &syntaxError{line: k.Line, col: k.Column, msg: yamlnode.FlowKeyTabMsg("story file")}
}

// Files lists every YAML file read for the story and its children, sorted.
func (st *Story) Files() []string {
	if st == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(st.sources))
}

// Source returns the bytes of a file read for the story, by display name.
func (st *Story) Source(file string) ([]byte, bool) {
	if st == nil {
		return nil, false
	}
	b, ok := st.sources[file]
	return b, ok
}
