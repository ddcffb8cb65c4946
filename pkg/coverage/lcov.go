package coverage

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteLCOV writes p in the LCOV tracefile format (geninfo(1)): one record
// per story file, a DA line per source line that starts a part of the
// story, with the smallest count of the parts on that line (so a line
// with a reached arc and an unreached one shows as unreached).
func WriteLCOV(w io.Writer, p *Profile) error {
	bw := bufio.NewWriter(w)
	for _, f := range p.Files {
		fmt.Fprintf(bw, "TN:\nSF:%s\n", lcovPath(f.Path))
		lines, fig := f.Lines()
		for _, l := range lines {
			fmt.Fprintf(bw, "DA:%d,%d\n", l.Number, l.Count)
		}
		fmt.Fprintf(bw, "LF:%d\nLH:%d\nend_of_record\n", fig.Total, fig.Reached)
	}
	return bw.Flush()
}

// lcovPath keeps a record on one line: a path with a line break (a file
// name no story tool would make) has it escaped.
func lcovPath(p string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(p)
}
