package flowtest

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
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

// TestIntentAliasTextBounded: an intents file's aliases repeat at most
// yamlnode.MaxAliasText of text, shared by its documents, as a flow
// fixture file's do (a 1 MB anchor named as 2,000 inputs made kitsoki test
// intents end in 'fatal error: out of memory' printing its report); the
// error names the file and the line of the alias past the limit.
func TestIntentAliasTextBounded(t *testing.T) {
	doc := func(n int) string {
		var b strings.Builder
		b.WriteString("test_kind: intents\nstate: s\nfixtures:\n  - id: a\n    intent: {name: go}\n    inputs:\n      - &big " + strings.Repeat("v", 1<<20) + "\n")
		for range n {
			b.WriteString("      - *big\n")
		}
		return b.String()
	}
	_, err := ParseIntents("intents/big.yaml", []byte(doc(100)))
	want := fmt.Sprintf("intents/big.yaml:%d: ", 7+yamlnode.MaxAliasText/(1<<20)+1)
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "MB of text by here") {
		t.Fatalf("a 1 MB anchor as 100 inputs: %v, want an error starting %q", err, want)
	}
	if _, err := ParseIntents("intents/docs.yaml", []byte(doc(40)+"---\n"+doc(40))); err == nil || !strings.Contains(err.Error(), "MB of text by here") {
		t.Errorf("two documents of 40 MiB each: %v, want the file's limit", err)
	}
	if ss, err := ParseIntents("intents/ok.yaml", []byte(strings.Replace(doc(0), strings.Repeat("v", 1<<20), "go north", 1)+strings.Repeat("      - *big\n", 200))); err != nil || len(ss[0].Fixtures[0].Inputs) != 201 {
		t.Errorf("a short anchor on 200 inputs: %v", err)
	}
}
