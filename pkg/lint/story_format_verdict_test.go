package lint

import (
	"strings"
	"testing"
)

// storyFormatBase is a valid story the cases below add one top-level
// block to.
const storyFormatBase = `app: {id: t}
root: a
intents: {go: {}}
states:
  a: {view: hi, on: {go: [{target: b}]}}
  b: {terminal: true}
`

// TestStoryFormatVerdicts: upstream's verdicts (its validate exit code;
// its loader is the same one test flows uses) on the neighbours of rules
// of story-format.md that ours judged differently, found walking it
// (docs/compat/story-format.md; probes under /tmp/formatwalk-probes).
func TestStoryFormatVerdicts(t *testing.T) {
	runVerdicts(t, []verdictCase{
		// §9.6 decider: a null block declares no decider; {} still needs agent.
		{"decider-null", storyFormatBase + "decider: ~\n", true, true},
		{"decider-empty", storyFormatBase + "decider: {}\n", false, false},
		// §9.6 meta modes: a group of one mode needs no default verb;
		// a group of two does.
		{"meta-mode-group-of-one", storyFormatBase + "meta_modes: {x.ask: {trigger: ask, group: x, agent: story-author}}\n", true, true},
		{"meta-mode-group-of-one-default-false", storyFormatBase + "meta_modes: {x.ask: {trigger: ask, group: x, default: false, agent: story-author}}\n", true, true},
		{"meta-mode-group-of-two", storyFormatBase + "meta_modes: {x.ask: {trigger: ask, group: x, agent: story-author}, x.tell: {trigger: tell, group: x, agent: story-author}}\n", false, false},
		// §3.5 bash_profile: both keys load (a warning says keep one);
		// neither key is refused.
		{"bash-profile-both", storyFormatBase + "agents: {j: {system_prompt: x, bash_profile: {commands: [go], sandboxed_write: d}}}\n", true, true},
		{"bash-profile-empty", storyFormatBase + "agents: {j: {system_prompt: x, bash_profile: {}}}\n", false, false},
		// §3.4 a slot validator is never compiled at load upstream.
		{"slot-validator-uncompilable", strings.Replace(storyFormatBase, "go: {}", "go: {slots: {x: {type: string, validator: 'len(('}}}", 1), true, true},
	})
}
