package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// strictStory takes an int slot and a bool set from a string: what the
// existing engine lets through and --strict refuses or keeps coerced.
const strictStory = `app: { id: strictness, version: 0.1.0 }
world:
  got:  { type: string, default: "" }
  flag: { type: bool, default: true }
intents:
  count:
    slots: { n: { type: int, required: true } }
  off: {}
  noop: {}
root: a
states:
  a:
    on:
      count:
        - target: .
          effects:
            - set: { got: "{{ slots.n }}" }
      off:
        - target: .
          effects:
            - set: { flag: "false" }
      noop: [ { target: . } ]
`

// The existing engine's fixtures: an int slot takes "many", and a set of
// "false" on a bool key reads back as the string on the next turn.
const upstreamFlow = `test_kind: flow
initial_state: a
use_orchestrator: true
turns:
  - intent: { name: count, slots: { n: many } }
    expect_world: { got: many }
  - intent: { name: off }
  - intent: { name: noop }
    expect_world: { flag: "false" }
`

// kitsoki test passes what the existing engine passes; --strict turns the
// stricter checks on and the same fixture fails on both turns.
func TestStrictIsOptIn(t *testing.T) {
	dir := storytest.TempTree(t, map[string]string{"app.yaml": strictStory, "flows/upstream.yaml": upstreamFlow})
	if code, out, errOut := runCmd(t, "test", dir); code != 0 {
		t.Fatalf("without --strict: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ := runCmd(t, "test", "--strict", dir)
	if code != exitFinding {
		t.Fatalf("--strict: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		filepath.Join("flows", "upstream.yaml") + ":5:5: unexpected rejection: code=INVALID_SLOT_VALUE",
		`expect_world["flag"]: got false (`, // the wording is pkg/flowtest's TestExpectWorldRules'
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--strict output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut := runCmd(t, "run", dir, "--intent", "count", "--slot", "n=many", "--trace", filepath.Join(t.TempDir(), "t.jsonl"))
	if code != exitFinding || !strings.Contains(out+errOut, "rested in state") {
		t.Errorf("run: exit %d, want the run to take n=many and rest\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCmd(t, "run", dir, "--strict", "--intent", "count", "--slot", "n=many")
	if code != exitUsageEnv || !strings.Contains(errOut, `--intent count --slot n: "many" is not an int (--strict)`) {
		t.Errorf("run --strict: exit %d\n%s", code, errOut)
	}
}
