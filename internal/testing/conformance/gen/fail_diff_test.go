package main

import (
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// TestFailuresDiffOrder: the same failures from checks in another order
// differ; a map's keys in another order within one check do not.
func TestFailuresDiffOrder(t *testing.T) {
	turn := func(fs ...string) *flowtest.TurnResult { return &flowtest.TurnResult{Failures: fs} }
	up := turn(`expect_world["a"]: got 1 (int64), want 2 (int64)`, `expect_world["b"]: got 1 (int64), want 2 (int64)`,
		"expect_events: event {Kind:x From: To: Effect:map[]} not found in subsequence", `expect_slots["v"]: got 1, want 2`)
	keys := turn(`expect_world["b"]: got 1 (number), want 2 (number)`, `expect_world["a"]: got 1 (number), want 2 (number)`,
		"expect_events: event {Kind:x From: To: Effect:map[]} not found in subsequence", `expect_slots["v"]: got 1, want 2`)
	if d := failuresDiff(up, keys); d != "" {
		t.Errorf("a map's keys in another order: %s", d)
	}
	moved := turn(`expect_world["a"]: got 1 (number), want 2 (number)`, `expect_world["b"]: got 1 (number), want 2 (number)`,
		`expect_slots["v"]: got 1, want 2`, "expect_events: event {Kind:x From: To: Effect:map[]} not found in subsequence")
	if d := failuresDiff(up, moved); !strings.Contains(d, "failures in another order: ours [expect_world; expect_slots; expect_events]") {
		t.Errorf("checks in another order: %q", d)
	}
}
