//go:build race

package agent_test

// bigAnswerBytes is the size of the "50 MB answer" fault test. Under the
// race detector every byte JSON decoding touches is instrumented, which
// makes a 50 MB answer take minutes on a shared machine; the race run uses
// 1 MiB, many times every buffer either transport reads an answer through
// (64 KiB and less), and plain `go test` (no -race) runs the full 50 MiB,
// beyond the MCP SDK's default 16 MiB event limit that the mcp_http
// transport raises to 64 MiB. Under -race that rule is proven by
// TestMCPHTTPAnswerLimitIsTheTransports, with a lowered limit and answers
// just under and over it.
const bigAnswerBytes = 1 << 20
