package conformance

import (
	"bytes"
	"errors"
	"io"

	"go.yaml.in/yaml/v3"
)

// DocumentAt is the index of the YAML document of src (a fixture file
// holding n fixtures, one a document) that holds line, or -1 when the
// file's documents do not pair up with its n verdicts (it does not parse,
// or holds another count): a finding in a file of several fixtures is
// judged by the fixture it is in.
func DocumentAt(src []byte, line, n int) int {
	if n == 1 {
		return 0
	}
	var starts []int
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return -1
		}
		starts = append(starts, doc.Line)
	}
	if len(starts) != n {
		return -1
	}
	i := 0
	for i+1 < len(starts) && starts[i+1] <= line {
		i++
	}
	return i
}
