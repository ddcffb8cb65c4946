package flowtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
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
	doc := func(n int) string { // mb (aliasmb) as the slot of n fixtures, the first on line 7
		var b strings.Builder
		b.WriteString("test_kind: intents\nstate: s\nfixtures:\n  - id: a\n    intent: {name: go, slots: " + aliasmb.Anchors() + "}\n    inputs: [x]\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {id: a%d, intent: {name: go, slots: {v: *mb}}, inputs: [x]}\n", i)
		}
		return b.String()
	}
	_, err := ParseIntents("intents/big.yaml", []byte(doc(100)))
	want := fmt.Sprintf("intents/big.yaml:%d:45: ", 6+yamlnode.MaxAliasText/aliasmb.Text)
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "MB of text by here") {
		t.Fatalf("a 1 MB anchor on 100 fixtures: %v, want an error starting %q", err, want)
	}
	if _, err := ParseIntents("intents/docs.yaml", []byte(doc(40)+"---\n"+doc(40))); err == nil || !strings.Contains(err.Error(), "MB of text by here") {
		t.Errorf("two documents of 40 MB each: %v, want the file's limit", err)
	}
	ok := "test_kind: intents\nstate: s\nfixtures:\n  - id: a\n    intent: {name: go}\n    inputs:\n      - &big go north\n" + strings.Repeat("      - *big\n", 200)
	if ss, err := ParseIntents("intents/ok.yaml", []byte(ok)); err != nil || len(ss[0].Fixtures[0].Inputs) != 201 {
		t.Errorf("a short anchor on 200 inputs: %v", err)
	}
}

// TestRecordingAliasTextBounded: a recording's aliases repeat at most
// yamlnode.MaxAliasText of text, for a flow replay and the static intents
// harness alike; the error names the recording and the alias's line.
func TestRecordingAliasTextBounded(t *testing.T) {
	rec := func(anchors, input string, n int) []byte { // entries from line 4
		var b strings.Builder
		b.WriteString("kind: recording\nx-anchors: " + anchors + "\nentries:\n")
		for range n {
			b.WriteString("  - {state: a, input: " + input + ", intent: {name: go}}\n")
		}
		return []byte(b.String())
	}
	_, err := parseRecording("r.yaml", rec(aliasmb.Anchors(), "*mb", 70))
	if err == nil || !strings.Contains(err.Error(), `recording "r.yaml": line 67: the aliases of this recording repeat more than 64 MB`) {
		t.Errorf("flow replay: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "recording.yaml"), rec(aliasmb.Anchors(), "*mb", 70), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readStaticRecording(dir, filepath.Join(dir, "recording.yaml")); err == nil || !strings.Contains(err.Error(), `:67: the aliases of this recording repeat more than 64 MB`) {
		t.Errorf("static harness: %v", err)
	}
	if r, err := parseRecording("r.yaml", rec("{big: &big short}", "*big", 200)); err != nil || r == nil {
		t.Errorf("a short anchor on 200 entries: %v", err)
	}
}

// TestIntentDocumentNodeLimit: an intents document is parsed into at most
// yamlnode.MaxTreeNodes nodes, as a flow fixture document is (yaml.v3
// alone held all of an 8 MB one), and refused at the node past them,
// naming the file and the line.
func TestIntentDocumentNodeLimit(t *testing.T) {
	src := "test_kind: intents\nstate: s\nfixtures:\n  - id: a\n    intent: {name: go}\n    inputs: [x]\n---\nnote: [" + strings.Repeat("1,", yamlnode.MaxTreeNodes) + "1]\n"
	_, err := ParseIntents("f.yaml", []byte(src))
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:8:") || !strings.Contains(err.Error(), "YAML nodes") {
		t.Errorf("%.300v, want the document refused at f.yaml:8 past the node limit", err)
	}
}
