package yamlnode

import (
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlfast"
)

// SizeError is a read refused at the node past the node limit. Its text
// reads as a yaml.v3 error ("yaml: line N: column C: ...", ErrLine).
type SizeError struct {
	Line, Col int
	Msg       string
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("yaml: line %d: column %d: %s", e.Line, e.Col, e.Msg)
}

// overFile is the SizeError of a file past max nodes at line, col.
func overFile(line, col, max int) *SizeError {
	return &SizeError{Line: line, Col: col, Msg: TreeNodesMsg("file", max, "split it into smaller files")}
}

// UnmarshalPlain is yaml.Unmarshal into a node tree within MaxTreeNodes,
// for files read as yaml.v3 reads them (`\/` refused): past the limit a
// *SizeError, a large file only yaml.v3 parses a *Declined.
func UnmarshalPlain(data []byte, doc *yaml.Node) error { return decodeInto(data, doc, MaxTreeNodes) }

// decodeInto is Decode into *doc within max, its refusals as errors; no
// document leaves doc as it is, as yaml.Unmarshal does.
func decodeInto(data []byte, doc *yaml.Node, max int) error {
	parsed, over, err := Decode(data, max)
	switch {
	case over != nil:
		return overFile(over.Line, over.Col, max)
	case errors.Is(err, io.EOF):
		return nil // no document: doc stays empty, as yaml.Unmarshal leaves it
	case err != nil:
		return err
	}
	*doc = *parsed
	return nil
}

// StreamWithin checks every document of data within max nodes, before a
// yaml.v3 Decoder reads them one by one (Decode checks the first only):
// nil, a *SizeError at the node past max, or a *Declined for a file of
// more than 2/3 max bytes that only yaml.v3 parses, which could hold more
// than max nodes in a document before they are counted. A smaller file
// cannot pass max (a node takes 2/3 of a byte at least).
func StreamWithin(data []byte, max int) error {
	if !yamlfast.CouldPass(len(data), max) {
		return nil
	}
	o, d := yamlfast.Count(countable(data), max)
	switch {
	case o != nil:
		return overFile(o.Line, o.Col, max)
	case d == nil:
		return nil
	case d.Why == yamlfast.LaterOver:
		return overFile(atLeast1(d.Line), atLeast1(d.Col), max)
	}
	return &Declined{Line: atLeast1(d.Line), Col: atLeast1(d.Col), Why: d.Why, Bytes: max * 2 / 3}
}
