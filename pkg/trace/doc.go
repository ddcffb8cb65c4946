// Package trace owns the JSONL trace of a kitsoki run: the [Writer], the
// streaming [Reader] with every read-time rule ([Verify]), and the summaries
// built on them ([Timeline], [Stats], [ExportOTLP]). It must not import
// pkg/agent, pkg/engine or cmd, nor print: it returns values and streams.
//
// The file shape is upstream's (trace-eval.md part A): a session.header
// line, then one event per line; a trace written here reads back and
// re-encodes byte for byte. Sidecars and blobs live in the trace's own
// agent-prompts/ folder and are read only from there, through no symlink
// (sidecar_read.go). Event lines go through fastDecode (decode.go), which
// takes only lines it decodes exactly as encoding/json would;
// [FastDecodeEnv] turns it off and fastdecode_test.go holds the two equal.
// The summaries hold what a wide or unfinished trace needs and no more: a
// timeline value is clipped to the width shown (timeline.go), an
// agent call with no result is kept as its start (calls.go).
package trace
