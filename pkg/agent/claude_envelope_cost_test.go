package agent

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
)

// costlyModelUsage is an envelope whose modelUsage holds n empty members
// ("m1":{}, about twelve bytes each).
func costlyModelUsage(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"m` + strconv.Itoa(i) + `":{}`)
	}
	b.WriteString("}")
	return b.String()
}

// An envelope whose modelUsage holds two hundred thousand empty members
// is read for what kitsoki takes from it without decoding them: parsing it
// allocates under three times its bytes. Before, modelUsage decoded into
// a map with no cost check and took 12.7 times them (31.6 MB for 2.5 MB;
// a 64 MiB stdout, the cap, reached about 850 MB).
func TestClaudeCostlyModelUsageAllocatesLittle(t *testing.T) {
	out := []byte(`{"type":"result","result":"x","modelUsage":` + costlyModelUsage(200_000) + `}`)
	var err error
	alloc := allocs.During(func() { _, err = parseClaudeEnvelope(out) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes: %d allocated", len(out), alloc)
	if alloc > 3*uint64(len(out)) {
		t.Fatalf("parsing a %d-byte envelope allocated %d bytes (%.1f times)", len(out), alloc, float64(alloc)/float64(len(out)))
	}
}

// The model the answer is credited to is modelUsage's only member (a name
// written twice is one member, as a map counts it); with none or several,
// the alias's model: through the stand-in claude CLI (fakeclaude).
func TestClaudeModelFromModelUsage(t *testing.T) {
	bin := BuildTestPlugin(t, "fakeclaude")
	for usage, want := range map[string]string{
		"":                                 "claude-haiku",
		`{"opus":{"a":[1,{"b":2}]}}`:       "opus",
		`{"opus":{},"opus":{"x":1}}`:       "opus",
		`{"opus":{},"sonnet":{}}`:          "claude-haiku",
		`{}`:                               "claude-haiku",
		`null`:                             "claude-haiku",
		costlyModelUsage(1_000):            "claude-haiku",
		`{"only":[[[[]]]],"only":"again"}`: "only",
	} {
		tr := newClaudeTransport(t, bin, "claude-haiku", map[string]string{"FAKE_CLAUDE_MODEL_USAGE": usage, "FAKE_CLAUDE_MODE": "plain"})
		resp, err := tr.Ask(context.Background(), referenceRequest())
		if err != nil {
			t.Fatalf("modelUsage %.60s: %v", usage, err)
		}
		if got := resp.Meta["model"]; got != want {
			t.Errorf("modelUsage %.60s: model %v, want %q", usage, got, want)
		}
	}
	tr := newClaudeTransport(t, bin, "claude-haiku", map[string]string{"FAKE_CLAUDE_MODEL_USAGE": `"opus"`, "FAKE_CLAUDE_MODE": "plain"})
	if _, err := tr.Ask(context.Background(), referenceRequest()); err == nil || !strings.Contains(err.Error(), "modelUsage is a string: expected an object") {
		t.Fatalf("a string modelUsage: %v", err)
	}
}
