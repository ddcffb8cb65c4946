package flowtest

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestKeySetsAreRead checks that each reader reads every key its table
// knows (parse_fixture.go): a known key the reader forgot would be
// dropped without the unknown-key warning. Every known key but test_kind
// is given a value of the wrong shape ([[1]]) in its place, and the
// reader must report it, naming the key.
func TestKeySetsAreRead(t *testing.T) {
	p := &parser{}
	places := []struct {
		keys []string
		wrap func(key string) string // a fixture with key: [[1]] in the set's place
	}{
		{p.fixtureFields(&Fixture{}, new(*yaml.Node)).Keys(), func(k string) string { return "test_kind: flow\n" + k + ": [[1]]\n" }},
		{p.turnFields(&Turn{}, "").Keys(), func(k string) string {
			filler := "advance_clock: 1s"
			if k == "advance_clock" {
				filler = "input: x"
			}
			return "test_kind: flow\nturns:\n  - " + filler + "\n    " + k + ": [[1]]\n"
		}},
		{p.intentFields(&IntentSpec{}, "").Keys(), func(k string) string { return "test_kind: flow\nturns:\n  - intent: {" + k + ": [[1]]}\n" }},
		{p.errorExpectFields(&ErrorExpect{}, "").Keys(), func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_error: {" + k + ": [[1]]}\n"
		}},
		{p.hostCallFields(&HostCallExpect{}, "").Keys(), func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_host_calls: [{" + k + ": [[1]]}]\n"
		}},
		{p.inboxFields(&InboxExpect{}, "").Keys(), func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_inbox: {" + k + ": [[1]]}\n"
		}},
		{p.jobFields(&JobExpect{}, "").Keys(), func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_jobs: [{" + k + ": [[1]]}]\n"
		}},
		{p.eventFields(&EventExpect{}, "").Keys(), func(k string) string {
			return "test_kind: flow\nturns:\n  - input: x\n    expect_events: [{" + k + ": [[1]]}]\n"
		}},
		{p.fileExpectFields(&FileExpect{}, "").Keys(), func(k string) string { return "test_kind: flow\nexpect_files: [{" + k + ": [[1]]}]\n" }},
		{p.stubFields(&Stub{}, "").Keys(), func(k string) string { return "test_kind: flow\nhost_handlers: {h: {" + k + ": [[1]]}}\n" }},
		{p.envelopeFields(&Envelope{}, "").Keys(), func(k string) string {
			return "test_kind: flow\nhost_handlers: {h: {by_call: {c: {" + k + ": [[1]]}}}}\n"
		}},
	}
	for _, pl := range places {
		for _, k := range pl.keys {
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
