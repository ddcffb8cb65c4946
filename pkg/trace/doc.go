// Package trace owns the JSONL trace of a kitsoki run: the [Writer], the
// streaming [Reader] with every read-time rule, and the summaries built on
// them ([Timeline], [Stats], [ExportOTLP]). It must not import pkg/agent,
// pkg/engine or cmd, nor print: it returns values and streams.
//
// In full, it owns the JSONL trace of a kitsoki run: the writer that appends
// events under an exclusive advisory lock (dense per-turn seq, RFC3339Nano UTC
// timestamps, one whole line per event fsynced as its SyncPolicy says,
// prompt and response sidecars and content-addressed blobs for large values
// under agent-prompts/), the streaming reader that applies every read-time rule of
// the trace format with its exact message and line number, and the summaries
// built on top of it (verify, timeline, calls, stats, cassette and OTLP export).
//
// The file shape is the one of the existing kitsoki engine (reference
// trace-eval.md part A): line 1 is a session.header object, every following
// line one event {turn, seq, ts, kind, state_path?, parent_turn?, call_id?,
// episode_id?, match_idx?, payload}. A trace written here reads back and
// re-encodes byte for byte.
//
// What it must not touch: trace never imports pkg/agent, pkg/engine or cmd.
// Code that reports events through a small interface of its own (pkg/agent's
// Sink) is wired to a Writer by an adapter in cmd/ or pkg/engine; the Writer
// offers Emit(kind, callID, payload) at a position set with SetPosition for
// that purpose. Printing, colours and flags belong to cmd/trace*.go; this
// package returns values and streams.
package trace
