package yamlnode

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Pos is a place in a file: 1-based line and column (0 when unknown).
type Pos struct {
	File string
	Line int
	Col  int
}

// String is file:line:col, the file alone when the line is unknown, and
// "(unknown position)" without a file.
func (p Pos) String() string {
	switch {
	case p.File == "":
		return "(unknown position)"
	case p.Line == 0:
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// posAt is the position of n in file (the file alone for a nil node).
func posAt(file string, n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: file}
	}
	return Pos{File: file, Line: n.Line, Col: n.Column}
}
