package flowtest

import (
	"fmt"
	"strings"
	"testing"
)

// TestKeySetsAreRead checks that each reader reads every key its keySet
// calls known (parse_fixture.go): a known key the reader forgot would be
// dropped without the unknown-key warning. Every known key but test_kind
// is given a value of the wrong shape ([[1]]) in its place, and the
// reader must report it, naming the key.
func TestKeySetsAreRead(t *testing.T) {
	places := []struct {
		ks   *keySet
		wrap func(key string) string // a fixture with key: [[1]] in the set's place
	}{
		{fixtureKeys, func(k string) string { return "test_kind: flow\n" + k + ": [[1]]\n" }},
		{turnKeys, func(k string) string {
			filler := "advance_clock: 1s"
			if k == "advance_clock" {
				filler = "input: x"
			}
			return "test_kind: flow\nturns:\n  - " + filler + "\n    " + k + ": [[1]]\n"
		}},
		{intentKeys, func(k string) string { return "test_kind: flow\nturns:\n  - intent: {" + k + ": [[1]]}\n" }},
		{errorExpectKeys, func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_error: {" + k + ": [[1]]}\n"
		}},
		{hostCallKeys, func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_host_calls: [{" + k + ": [[1]]}]\n"
		}},
		{inboxKeys, func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_inbox: {" + k + ": [[1]]}\n"
		}},
		{jobKeys, func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_jobs: [{" + k + ": [[1]]}]\n"
		}},
		{eventKeys, func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_events: [{" + k + ": [[1]]}]\n"
		}},
		{fileExpectKeys, func(k string) string { return "test_kind: flow\nexpect_files: [{" + k + ": [[1]]}]\n" }},
		{stubKeys, func(k string) string { return "test_kind: flow\nhost_handlers: {h: {" + k + ": [[1]]}}\n" }},
		{envelopeKeys, func(k string) string {
			return "test_kind: flow\nhost_handlers: {h: {by_call: {c: {" + k + ": [[1]]}}}}\n"
		}},
	}
	for _, pl := range places {
		for _, k := range pl.ks.known {
			if k == "test_kind" {
				continue // read by readDoc, not by the fixture reader
			}
			src := pl.wrap(k)
			_, ds := parseOne(t, src)
			found := false
			for _, d := range ds {
				if d.Rule != ruleUnknownKey.ID && d.Rule != ruleIgnoredKey.ID && strings.Contains(d.Message, k) {
					found = true
				}
			}
			if !found {
				t.Errorf("key %q is known but not read: no finding for its bad value in\n%s%s", k, src, fmt.Sprint(ds))
			}
		}
	}
}
