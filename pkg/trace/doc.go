// Package trace owns the JSONL trace of a kitsoki run: the [Writer], the
// streaming [Reader] with every read-time rule ([Verify]), and the summaries
// built on them ([Timeline], [Stats], [ExportOTLP]). It must not import
// pkg/agent, pkg/engine or cmd, nor print: it returns values and streams.
//
// The file shape is upstream's (trace-eval.md part A): line 1 a
// session.header, then one event per line {turn, seq, ts, kind, state_path?,
// parent_turn?, call_id?, episode_id?, match_idx?, payload}; a trace written
// here reads back and re-encodes byte for byte. The Writer holds an
// exclusive advisory lock, keeps seq dense per turn, writes whole lines
// fsynced as its [SyncPolicy] says, and puts prompt and response sidecars and
// content-addressed blobs under promptsDir. Code that reports events
// through its own interface (pkg/agent's Sink) is wired to a Writer by an
// adapter in cmd/ or pkg/engine, through [Writer.Append].
//
// Readers take what a trace's references name (blobs, prompt and response
// sidecars: sidecar_read.go, [ReadSidecar]) only from the trace's own
// agent-prompts/ folder: regular files reached through no symlink, each
// read once per Reader; [ReadOptions].BlobPreview reads just a blob's first
// bytes for readers that clip values, so a trace naming one large blob
// many times costs that blob's size at most.
//
// Event lines are decoded by fastDecode (decode.go over scan.go's JSON
// scanner), which takes only the lines it can decode exactly as
// encoding/json would and hands every other line to encoding/json, whose
// error text the read-time messages quote. [FastDecodeEnv]
// (KITSOKI_TRACE_FASTDECODE=0) turns it off; fastdecode_test.go and
// FuzzDecodeLine read traces both ways and require the same events and
// errors. BenchmarkTraceLarge measures both.
package trace
