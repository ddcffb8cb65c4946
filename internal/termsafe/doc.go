// Package termsafe owns the one set of control characters kitsoki refuses
// to print raw on a terminal and [Printable], which escapes them as \xNN or
// \uNNNN and defuses any line a CI runner would read as a command
// ([IsCommandLine]); [Line] also shows newlines as \n; [WorkflowData] and
// [WorkflowProperty] encode GitHub workflow commands; [ShellWord] quotes a
// word of a command line printed for the user to run. It must not touch
// colour, layout or where text is written: callers decide that.
//
// The set ([IsControl]) is what a story or an agent answer could carry to
// move the cursor, retitle the terminal or reorder what the reader sees;
// bytes that are not valid UTF-8 are escaped too (a lone 0x9b is CSI to a
// terminal not in UTF-8 mode).
package termsafe
