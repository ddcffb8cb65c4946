package leak

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Channels a plugin can leak through, selected by with.channel.
const (
	Answer    = "answer"     // the submission
	Meta      = "meta"       // the answer's meta
	SubEvent  = "sub_event"  // a sub-event payload
	Stderr    = "stderr"     // stderr, then a crash
	Error     = "error"      // a JSON-RPC error message (an isError tool result over MCP)
	ErrorData = "error_data" // a JSON-RPC error's data
	Big       = "big"        // an answer of BigBytes (no secret)
)

// bigBytes is the size of the Big answer: under the 64 MiB answer frame
// cap, but two copies of it (a harness.returned event holds submission
// and submitted) are over the trace reader's 64 MiB line limit.
const bigBytes = 34 << 20

// encodedForms holds s raw and in each encoded form an echo could carry.
func encodedForms(s string) string {
	return "raw:" + s + " json:" + jsonInner(s) + " ascii:" + asciiInner(s) + " url:" + url.QueryEscape(s) + " path:" + url.PathEscape(s)
}

// Forms lists s in every form a test must not find in output.
func Forms(s string) map[string]string {
	return map[string]string{"raw": s, "json": jsonInner(s), "ascii": asciiInner(s), "url": url.QueryEscape(s), "path": url.PathEscape(s)}
}

// jsonInner is s JSON-escaped, without the quotes.
func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// asciiInner is s JSON-escaped with every non-ASCII rune as \uXXXX.
func asciiInner(s string) string {
	var b strings.Builder
	for _, r := range jsonInner(s) {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// Reply is what a leaking plugin answers on channel: a result (an
// AskResponse as JSON) or a JSON-RPC style error.
type Reply struct {
	Result    map[string]any
	ErrMsg    string
	ErrData   any
	Stderr    string
	Crash     bool
	IsErrText string // MCP: an isError tool result's text
}

// For builds the reply for channel, for a plugin aliased alias answering
// call callID.
func For(channel, secret, alias, callID string) Reply {
	text := encodedForms(secret)
	ok := map[string]any{"submission": map[string]any{"text": "ok"}}
	switch channel {
	case Answer:
		return Reply{Result: map[string]any{"submission": map[string]any{"text": text}}}
	case Meta:
		ok["meta"] = map[string]any{"token": text, "model": "m-" + secret}
		return Reply{Result: ok}
	case SubEvent:
		ok["sub_events"] = []any{map[string]any{"kind": alias + ".tool", "call_id": callID, "ts": "2026-01-01T00:00:00Z", "payload": map[string]any{"cmd": text}}}
		return Reply{Result: ok}
	case Stderr:
		return Reply{Stderr: text, Crash: true}
	case Error:
		return Reply{ErrMsg: text, IsErrText: text}
	case Big:
		return Reply{Result: map[string]any{"submission": map[string]any{"text": strings.Repeat("big answer ", bigBytes/11)}}}
	case ErrorData:
		return Reply{ErrMsg: "the plugin failed", ErrData: map[string]any{"detail": text}, IsErrText: "failed: " + text}
	}
	return Reply{Result: ok}
}
