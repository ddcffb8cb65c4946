package flowtest

import (
	"strings"
	"testing"
)

// TestIntentRunsBounded: a file whose fixtures would route their inputs
// more than maxIntentRoutes times (runs: 1000000000000, a repository's
// file) is refused when it is read, naming the fixture's line; kitsoki
// test intents looped on the static recording until it was killed.
func TestIntentRunsBounded(t *testing.T) {
	for _, src := range []string{
		"test_kind: intents\nstate: s\ndefaults: {runs: 1000000000000}\nfixtures:\n  - id: a\n    intent: {name: go}\n    inputs: [x]\n",
		"test_kind: intents\nstate: s\nfixtures:\n  - id: a\n    intent: {name: go}\n    inputs: [x]\n  - id: b\n    runs: 600000\n    intent: {name: go}\n    inputs: [x, y]\n",
	} {
		_, err := ParseIntents("f.yaml", []byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:") || !strings.Contains(err.Error(), "more than 1000000 times") {
			t.Errorf("%q: %v, want the runs refused naming the file and line", src, err)
		}
	}
	ok := "test_kind: intents\nstate: s\ndefaults: {runs: 20}\nfixtures:\n  - id: a\n    intent: {name: go}\n    inputs: [x, y]\n"
	if ss, err := ParseIntents("f.yaml", []byte(ok)); err != nil || len(ss) != 1 || ss[0].Fixtures[0].Runs != 20 {
		t.Errorf("runs 20: %v", err)
	}
}
