//go:build linux

package agent

import (
	"strings"
	"testing"
)

// Without ids, a second reply written in the same write as the first is
// stray even when the next call comes at once (no wait for the client to
// take it aside): the barrier before each request accounts for what the
// pipe holds. Many rounds, since the reader's scheduling decides where
// the line is when the next call starts.
func TestSubprocessSecondBareAnswerAtOnceIsStray(t *testing.T) {
	CheckNoChildren(t)
	f := newEchoSubprocess(t, BuildTestPlugin(t, "echoagent"), nil, "")
	for round := range 50 {
		if resp := askOK(t, f.tr, withFault("dup_bare")); string(resp.Submission) != referenceSubmission {
			t.Fatalf("round %d: first answer %s", round, resp.Submission)
		}
		next := &callNotes{}
		resp := askNoted(t, f.tr, next, differentRequest())
		if !bytesContains(resp.Submission, "a different prompt") {
			t.Fatalf("round %d: the next call got the second reply as its answer: %s", round, resp.Submission)
		}
		checkStray(t, next, "after the answer to request")
	}
}

func bytesContains(b []byte, s string) bool { return strings.Contains(string(b), s) }
