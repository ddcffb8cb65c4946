package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/termsafe"
	"kitsoki/internal/testing/storytest"
)

// TestCompletionOffersNoControlCharacters: intents and trace file names a
// repository chose, holding an OSC title (or clipboard) sequence, a tab
// or a newline, are not offered by shell completion (redteam6: __complete
// printed them raw, and zsh or fish show the candidates on the terminal);
// the clean ones still are.
func TestCompletionOffersNoControlCharacters(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{
		"app.yaml": "app: {id: comp, version: 0.1.0}\nintents:\n  \"go\\e]52;c;cm0gLXJmIH4=\\a\": {description: x}\n  \"x\\ty\": {description: t}\n" +
			"  \"n\\nm\": {description: n}\n  \"\\u009b2Jz\": {description: c1}\n  good: {description: g}\nroot: idle\nstates:\n  idle:\n    on:\n      good: [{target: done}]\n  done:\n    terminal: true\n",
	})
	sess := filepath.Join(dir, ".kitsoki", "sessions")
	if err := os.MkdirAll(sess, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"20261201T000000Z-a\x1b]0;PW\x07-abcd.jsonl", "20261201T000000Z-clean-abcd.jsonl"} {
		if err := os.WriteFile(filepath.Join(sess, name), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "run", dir, "--intent", ""}, "good"},
		{[]string{"__complete", "trace", "show", "--sessions-dir", sess, ""}, "20261201T000000Z-clean-abcd"},
	} {
		code, out, _ := runCmd(t, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, out)
		}
		if i := strings.IndexFunc(out, termsafe.IsControl); i >= 0 {
			t.Errorf("%v: a control character reaches the shell at byte %d: %q", tc.args, i, out)
		}
		lines := strings.SplitSeq(out, "\n")
		for l := range lines {
			if strings.Contains(l, "\t") || l == "m" || l == "n" {
				t.Errorf("%v: a candidate split by its own tab or newline: %q", tc.args, l)
			}
		}
		if !strings.Contains(out, tc.want+"\n") {
			t.Errorf("%v: %q is not offered:\n%s", tc.args, tc.want, out)
		}
	}
}
