package agent

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"kitsoki/internal/childproc"
)

// stderrTailBytes is how much of a plugin's stderr childproc.Stderr keeps.
const stderrTailBytes = 8 << 10

// A stderr line longer than the tail is logged in pieces. No piece may end
// inside a secret: not one that is complete in the buffer, nor one whose
// head arrived in this write and whose rest is still to come.
func TestStderrPiecesNeverSplitASecret(t *testing.T) {
	const secret = "sk-planted-SECRET-4f9a"
	rd := redactorOf([]string{secret, "other-secret"})
	for _, split := range []int{1, 5, len(secret) - 1} {
		var logBuf bytes.Buffer
		tail := childproc.NewStderr(slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug})),
			"agent plugin stderr", []any{"agent", "agent.x"}, rd.String, rd.safeCut)
		// first write: a long line ending with the head of the secret
		pad := strings.Repeat("x", stderrTailBytes+10)
		tail.Write([]byte(pad + secret[:split]))
		tail.Write([]byte(secret[split:] + " more\n"))
		// a complete secret straddling the point where a cut would fall
		tail.Write([]byte(strings.Repeat("y", stderrTailBytes-3) + secret + strings.Repeat("z", 40)))
		tail.Write([]byte("\n"))
		out := logBuf.String()
		for _, frag := range []string{"x" + secret[:split], "y" + secret[:4], secret[len(secret)-4:] + "z"} {
			if strings.Contains(out, frag) {
				t.Errorf("split %d: a piece of the secret reached the log (%q):\n%.300s", split, frag, out)
			}
		}
		if strings.Count(out, Redacted) != 2 {
			t.Errorf("split %d: %d masked secrets in the log, want 2", split, strings.Count(out, Redacted))
		}
	}
}

func TestSafeCut(t *testing.T) {
	rd := redactorOf([]string{"abcd"})
	for _, tc := range []struct {
		s    string
		n    int
		want int
	}{
		{"xxabcdxx", 8, 8}, // nothing spans the end
		{"xxabcdxx", 4, 2}, // inside a complete secret: cut before it
		{"xxabcdxx", 6, 6}, // right after a secret
		{"xxxxxab", 7, 5},  // the head of a secret may continue
		{"xxxxxaz", 7, 7},  // not a secret's head
		{"abcdabc", 7, 4},  // a complete one, then a head
		{"", 0, 0},
	} {
		if got := rd.safeCut(tc.s, tc.n); got != tc.want {
			t.Errorf("safeCut(%q, %d) = %d, want %d", tc.s, tc.n, got, tc.want)
		}
	}
	if got := (redactor{}).safeCut("abc", 3); got != 3 {
		t.Errorf("no secrets: %d", got)
	}
}
