package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kitsoki/internal/testing/proctest"
)

// A plugin that answers a call twice: the first answer is the call's, the
// second is never delivered to another call and is reported (stray, naming
// the plugin) with the next call. Open item of the contract audit
// (docs/contract-coverage.md "Extra answers").

// pending is how many stray lines wait for the next call.
func (p *strayLog) pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines) + p.more
}

// askNoted is askOK with the call's notes collected in n.
func askNoted(t *testing.T, tr Transport, n *callNotes, req *AskRequest) *AskResponse {
	t.Helper()
	ctx, cancel := context.WithTimeout(withNotes(context.Background(), n), time.Minute) // a hang guard
	defer cancel()
	resp, err := tr.Ask(ctx, req)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	return resp
}

// differentRequest is a request whose echo answer differs from the
// reference one, so an answer given to another call shows.
func differentRequest() *AskRequest {
	req := referenceRequest()
	req.Prompt = "a different prompt"
	return req
}

func checkOwnAnswer(t *testing.T, resp *AskResponse) {
	t.Helper()
	if !bytes.Contains(resp.Submission, []byte("a different prompt")) {
		t.Fatalf("the call got another call's answer: %s", resp.Submission)
	}
}

func checkStray(t *testing.T, n *callNotes, parts ...string) {
	t.Helper()
	_, stray := n.fields()
	if len(stray) != 1 {
		t.Fatalf("want one stray line, got %q", stray)
	}
	for _, p := range append(parts, "subprocess plugin agent.echo", "answers no waiting call") {
		if !strings.Contains(stray[0], p) {
			t.Fatalf("stray lacks %q: %s", p, stray[0])
		}
	}
}

// With ids the second reply is recognised wherever it is read: between
// calls (stray) or while the next call waits (skipped, reported with it).
func testSubprocessSecondAnswerWithIDIsStray(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	first := &callNotes{}
	if resp := askNoted(t, f.tr, first, withFault("dup_id")); string(resp.Submission) != referenceSubmission {
		t.Fatalf("first answer %s", resp.Submission)
	}
	next := &callNotes{}
	checkOwnAnswer(t, askNoted(t, f.tr, next, differentRequest()))
	// The extra reply lands in exactly one call's notes: the first call's
	// never (it had returned), the next one's always.
	if _, s := first.fields(); len(s) != 0 {
		t.Fatalf("first call noted %q", s)
	}
	checkStray(t, next, `\"id\":1`)
	if f.tr.stray.pending() != 0 {
		t.Fatal("stray lines left over")
	}
}

// Without ids only the order tells replies apart: a second reply the
// plugin wrote before the next request is stray. The test waits until the
// client has taken it (a condition, not a guessed delay).
func testSubprocessSecondAnswerWithoutIDIsStray(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	if resp := askOK(t, f.tr, withFault("dup_bare")); string(resp.Submission) != referenceSubmission {
		t.Fatalf("first answer %s", resp.Submission)
	}
	proctest.Eventually(t, "the second reply to be taken as stray", func() bool { return f.tr.stray.pending() == 1 })
	next := &callNotes{}
	checkOwnAnswer(t, askNoted(t, f.tr, next, differentRequest()))
	checkStray(t, next, "after the answer to request 1")
}

// A reply to an earlier request read while a call waits is passed over:
// the call gets its own answer and the process is kept.
func testSubprocessStaleReplySkipped(t *testing.T, bin string) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, bin, nil, "")
	pid := pidOf(t, askOK(t, f.tr, referenceRequest()))
	n := &callNotes{}
	resp := askNoted(t, f.tr, n, withFault("stale_first"))
	if string(resp.Submission) != referenceSubmission || pidOf(t, resp) != pid {
		t.Fatalf("answer %s from pid %v (want %d)", resp.Submission, resp.Meta["pid"], pid)
	}
	checkStray(t, n, "while request 2 was waiting", `{\"stale\":true}`)
}

// Request ids keep increasing across respawns (reference §13: a plugin
// must expect it), so a reply to a request sent to an earlier process can
// never carry the id of a later one.
func TestSubprocessIDsKeepIncreasingAcrossRespawns(t *testing.T) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, BuildTestPlugin(t, "echoagent"), nil, "")
	idOf := func() float64 {
		t.Helper()
		var got struct{ Line string }
		if err := json.Unmarshal(askOK(t, f.tr, withFault("echo_request")).Submission, &got); err != nil {
			t.Fatal(err)
		}
		var frame struct{ ID float64 }
		if err := json.Unmarshal([]byte(got.Line), &frame); err != nil {
			t.Fatal(err)
		}
		return frame.ID
	}
	first := idOf()
	askKind(t, f.tr, context.Background(), withFault("crash"), KindPluginCrash)
	if again := idOf(); again != first+2 {
		t.Fatalf("id after a respawn %v, want %v", again, first+2)
	}
}
