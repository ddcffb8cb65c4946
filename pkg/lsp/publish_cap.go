package lsp

import (
	"fmt"
	"path/filepath"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/pkg/diag"
)

// maxPublished bounds the findings (and, apart, the coverage hints) one
// publishDiagnostics carries for one file, so a story with huge numbers of
// findings does not send the editor one message of tens of megabytes.
const maxPublished = 1000

// capFindings returns the findings to publish for one file (at most
// maxPublished-1, errors before warnings, each group in the order given)
// and how many are left out.
func capFindings(ds []diag.Diagnostic) (shown []diag.Diagnostic, more int) {
	if len(ds) < maxPublished {
		return ds, 0
	}
	keep := maxPublished - 1
	shown = make([]diag.Diagnostic, 0, keep)
	for _, errorsFirst := range []bool{true, false} {
		for _, d := range ds {
			if len(shown) == keep {
				break
			}
			if (d.Severity == diag.Error) == errorsFirst {
				shown = append(shown, d)
			}
		}
	}
	return shown, len(ds) - keep
}

// moreFindings is the note that stands for the findings left out, at the
// top of the file.
func moreFindings(file string, more int) protocol.Diagnostic {
	return protocol.Diagnostic{
		Range:    protocol.Range{},
		Severity: new(protocol.DiagnosticSeverityInformation),
		Code:     &protocol.IntegerOrString{Value: "more-findings"},
		Source:   new("kitsoki"),
		Message: fmt.Sprintf("%d more findings in this file are not shown (the editor gets at most %d per file); run kitsoki validate %s to list them all",
			more, maxPublished-1, filepath.Base(file)),
	}
}
