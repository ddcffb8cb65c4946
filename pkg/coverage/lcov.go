package coverage

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteLCOV writes p in the LCOV tracefile format (geninfo(1)), a DA line
// per File.Lines line.
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

// lcovPath escapes a path's line breaks, keeping a record on one line.
func lcovPath(p string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(p)
}
