// Package termsafe owns the one set of control characters kitsoki refuses
// to print raw on a terminal and [Printable], which escapes them as \xNN or
// \uNNNN and defuses any line a CI runner would read as a command
// ([IsCommandLine]: "::error ...::" at its start, "##[...]" anywhere);
// [Line] also shows newlines
// as \n for one-line fields; [WorkflowData] and [WorkflowProperty] encode
// GitHub workflow commands. It must not touch colour, layout or where text
// is written: callers ([kitsoki/pkg/trace.Printable], pkg/diag's formats,
// pkg/flowtest's reports, cmd/) decide that.
//
// The set is C0 controls except newline and tab, DEL, the C1 controls,
// the line and paragraph separators (U+2028, U+2029), the bidirectional
// embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069)
// and marks (U+061C, U+200E, U+200F), and the invisible characters that
// join nothing (U+200B, U+2060–U+2064, U+FEFF):
// what a story or an agent answer could carry to move the cursor, retitle
// the terminal or reorder what the reader sees. Bytes that are not valid
// UTF-8 are escaped too (a lone 0x9b is CSI to a terminal not in UTF-8
// mode).
package termsafe
