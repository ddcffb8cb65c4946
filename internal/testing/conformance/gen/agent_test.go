package main

import (
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// The agent stories gen writes load here and their fixtures (stubs,
// cassettes, recordings) run with no Go runtime text in any failure, view
// or event; every way of feeding an answer is drawn; the same seed writes
// the same bytes.
func TestAgentStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 15
	dir := writeSeeded(t, func(d string, n int, s uint64) error { return writeAgent(d, n, s, false) }, n, 7, "000/app.yaml", "001/flows/h.yaml", "001/flows/cassettes/c.yaml")
	files := storyFixtures(t, dir, n, 2)
	// a recording fixture (flows/r.yaml) says it is one
	assertDrawn(t, dir, []string{"recording:", "infra_error:", "error:", "by_call:", "replay: any", "agent:", "cost_usd:", "turn_cost_usd"})
	runClean(t, files, n)
}

// callsDiff reports the first dispatched call whose args differ, and
// ignores a turn where either engine dispatched nothing.
func TestCallsDiff(t *testing.T) {
	t.Parallel()
	turn := func(prompt string) *flowtest.TurnResult {
		if prompt == "" {
			return &flowtest.TurnResult{}
		}
		return &flowtest.TurnResult{Events: []flowtest.ReportEvent{{Kind: "harness.dispatched",
			Payload: []byte(`{"namespace":"host.agent.ask","args":{"prompt":"` + prompt + `"}}`)}}}
	}
	if d := callsDiff(turn("a"), turn("a")); d != "" {
		t.Errorf("same calls differ: %s", d)
	}
	if d := callsDiff(turn("a"), turn("")); d != "" {
		t.Errorf("a turn with no dispatch compared: %s", d)
	}
	if d := callsDiff(turn("a"), turn("b")); !strings.Contains(d, `"prompt":"b"`) || !strings.Contains(d, `existing {"args":{"prompt":"a"}`) {
		t.Errorf("differing prompts: %q", d)
	}
}

// payloadDiff reports an upstream payload key of a matched kind that ours
// lacks or holds another value under, and ignores keys only ours writes,
// job ids and unmatched kinds.
func TestPayloadDiff(t *testing.T) {
	t.Parallel()
	turn := func(kind, payload string) *flowtest.TurnResult {
		return &flowtest.TurnResult{Events: []flowtest.ReportEvent{{Kind: kind, Payload: []byte(payload)}}}
	}
	tr := func(slots string) *flowtest.TurnResult {
		return turn("machine.transition", `{"from":"a","to":"b","slots":`+slots+`}`)
	}
	if d := payloadDiff(tr("null"), tr("null"), ""); d != "" {
		t.Errorf("same payloads differ: %s", d)
	}
	if d := payloadDiff(tr("null"), tr("{}"), ""); !strings.Contains(d, `"slots" {}, existing null`) {
		t.Errorf("null and {} slots: %q", d)
	}
	if d := payloadDiff(tr("null"), turn("machine.transition", `{"from":"a","to":"b","slots":null,"keys":["x"]}`), ""); d != "" {
		t.Errorf("a key only ours writes compared: %s", d)
	}
	if d := payloadDiff(tr("null"), turn("machine.transition", `{"from":"a","to":"b"}`), ""); !strings.Contains(d, `no "slots"`) {
		t.Errorf("a key ours lacks: %q", d)
	}
	job := func(id string) *flowtest.TurnResult {
		return turn("world.update", `{"set":{"j":"`+id+`"}}`)
	}
	if d := payloadDiff(job("01M8ZCZ0EBFXGHB046AS1ZJMZX"), job("00000000000000000000000001"), ""); d != "" {
		t.Errorf("job ids compared: %s", d)
	}
	if d := payloadDiff(turn("turn.start", `{"turn":3}`), turn("turn.start", `{"turn":4}`), ""); d != "" {
		t.Errorf("an unmatched kind compared: %s", d)
	}
}
