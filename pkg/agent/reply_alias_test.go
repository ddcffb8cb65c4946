package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// A big submission is kept as the slice of the reply line it is, not
// copied: the reply decodes allocating a small part of it.
func TestReplyKeepsSubmissionInTheLine(t *testing.T) {
	text := strings.Repeat("big answer ", 8<<20/11)
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"submission":{"text":"` + text + `"},"meta":{"model":"m"}}}`)
	tr := &subprocessTransport{alias: "agent.big", redact: BuildContext{}.Mask}
	var resp *AskResponse
	var err error
	spent := allocs.During(func() { resp, err = tr.parseReply(line, 1) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-byte reply: allocated %d", len(line), spent)
	if string(resp.Submission) != `{"text":"`+text+`"}` || resp.Meta["model"] != "m" {
		t.Fatalf("submission of %d bytes, meta %v", len(resp.Submission), resp.Meta)
	}
	if spent > 1<<20 {
		t.Errorf("decoding a %d-byte reply allocated %d bytes", len(line), spent)
	}
	if cap(resp.Submission) != len(resp.Submission) {
		t.Error("an append to the submission would write into the line")
	}
}

// FuzzReplyAsDecoded holds parseReply's answer to what decoding the line
// into an AskResponse (its submission a json.RawMessage copy) gives.
func FuzzReplyAsDecoded(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"submission":{"a":1},"meta":{"k":"v"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"submission":null,"sub_events":[{"kind":"agent.fuzz.x","call_id":"c"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"submission":"x","submission":[1, 2 ]}}`,
		`{"id":1,"result":{"transcript":{"format":"f","events":[{}]},"submission":  true }}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
	} {
		f.Add([]byte(s))
	}
	tr := &subprocessTransport{alias: "agent.fuzz", redact: BuildContext{}.Mask}
	f.Fuzz(func(t *testing.T, line []byte) {
		resp, err := tr.parseReply(line, 1)
		var want rpcReply[*AskResponse]
		if json.Unmarshal(line, &want) != nil || err != nil {
			return
		}
		if !reflect.DeepEqual(resp, want.Result) {
			t.Fatalf("%q: got %#v, want %#v", line, resp, want.Result)
		}
	})
}
