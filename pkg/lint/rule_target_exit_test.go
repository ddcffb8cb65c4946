package lint

import (
	"slices"
	"testing"

	"kitsoki/pkg/story"
)

// exitMessages are the exits rule's messages on the story src, which may
// fail to load.
func exitMessages(t *testing.T, src string) []string {
	t.Helper()
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	return ruleMessages(ds, ruleExits.ID)
}

// A timeout's @exit is worded as an arm's, as upstream's loader words it:
// no "timeout.target:" before it, and our hint kept after the text where
// the story declares no exits (the existing engine's texts, probed:
// `state "s": transition target "@exit:done" (resolved: "@exit:done")
// does not exist`, `@exit:done referenced but not declared in exits:`).
func TestTimeoutExitWordedAsArm(t *testing.T) {
	none := exitMessages(t, `app: {id: w}
root: s
intents: {go: {}}
states:
  s:
    timeout: {after: 1m, target: "@exit:done"}
    on:
      go: [{target: t}]
  t: {}
`)
	want := `state "s": transition target "@exit:done" (resolved: "@exit:done") does not exist (declare the exit under exits:)`
	if !slices.Contains(none, want) {
		t.Errorf("no exits: got %q, want %q", none, want)
	}
	other := exitMessages(t, `app: {id: w}
root: s
intents: {go: {}}
exits: {other: {}}
states:
  s:
    timeout: {after: 1m, target: "@exit:done"}
    on:
      go: [{target: "@exit:other"}]
`)
	if want := "@exit:done referenced but not declared in exits:"; !slices.Contains(other, want) {
		t.Errorf("another exit declared: got %q, want %q", other, want)
	}
}
