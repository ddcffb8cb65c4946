package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
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

// stateFormat is a story whose state a is written STATE.
func stateFormat(state string) string {
	return "app: {id: t}\nroot: a\nintents: {go: {}}\nstates:\n  a: " + state + "\n  b: {terminal: true}\n"
}

// TestStoryFormatStateVerdicts: upstream's verdicts on §4.1 and §4.5
// neighbours: initial: is checked only on a type: compound state, and
// contextual_routing.room_chat is an intent name checked like the plan
// intents (a scalar's text; "" is no lane; a list or mapping does not load).
func TestStoryFormatStateVerdicts(t *testing.T) {
	runVerdicts(t, []verdictCase{
		{"initial-on-atomic", stateFormat("{initial: zz, on: {go: [{target: b}]}}"), true, true},
		{"initial-on-untyped-parent", stateFormat("{initial: zz, states: {x: {}}, on: {go: [{target: b}]}}"), true, true},
		{"initial-on-terminal", stateFormat("{initial: zz, terminal: true}"), true, true},
		{"initial-on-compound", stateFormat("{type: compound, initial: zz, states: {x: {}}}"), false, false},
		{"initial-on-compound-no-children", stateFormat("{type: compound, initial: zz, on: {go: [{target: b}]}}"), false, false},
		{"room-chat-no-arc", stateFormat("{contextual_routing: {enabled: true, room_chat: go}}"), false, false},
		{"room-chat-bool", stateFormat("{contextual_routing: {enabled: true, room_chat: true}}"), false, false},
		{"room-chat-empty", stateFormat("{contextual_routing: {enabled: true, room_chat: ''}}"), false, false},
		{"room-chat-list", stateFormat("{contextual_routing: {enabled: true, room_chat: [go]}}"), false, false},
		{"room-chat-arc", stateFormat("{contextual_routing: {enabled: true, room_chat: go}, on: {go: [{target: b}]}}"), true, true},
		{"help-chat-false", stateFormat("{contextual_routing: {enabled: true, help_chat: false}, on: {go: [{target: b}]}}"), true, true},
	})
}

// TestStarlarkSidecarParsedAtLoad: upstream parses a host.starlark.run
// script's sidecar at load and refuses the story when it is malformed
// (story-format.md §9.6, "sidecar ... is malformed"); ours checked only
// that it exists. An empty sidecar and unknown keys load on both.
func TestStarlarkSidecarParsedAtLoad(t *testing.T) {
	app := `app: {id: t}
root: a
hosts: [host.starlark.run]
intents: {go: {}}
states:
  a:
    on: {go: [{target: b}]}
    on_enter:
      - {invoke: host.starlark.run, with: {script: s.star}}
  b: {terminal: true}
`
	for name, tc := range map[string]struct {
		sidecar string
		valid   bool
	}{
		"yaml-error":    {"inputs: [\n", false},
		"list":          {"- a\n", false},
		"null":          {"~\n", false},
		"unknown-type":  {"inputs:\n  n: {type: banana}\n", false},
		"inputs-list":   {"inputs: [n]\n", false},
		"duplicate-key": {"inputs: {}\ninputs: {}\n", false},
		"empty":         {"", true},
		"comment-only":  {"# nothing\n", true},
		"unknown-keys":  {"bogus: 1\ninputs:\n  n: {type: int, bogus: 1}\n", true},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "app.yaml", app)
			write(t, dir, "s.star", "def main(inputs):\n  return {}\n")
			write(t, dir, "s.star.yaml", tc.sidecar)
			_, ds := Load(dir, story.Options{})
			malformed := false
			for _, d := range ds {
				if d.Severity == diag.Error && strings.Contains(d.Message, "is malformed") {
					malformed = true
				}
			}
			if malformed == tc.valid {
				t.Errorf("malformed reported: %v, upstream valid: %v\n%v", malformed, tc.valid, ds)
			}
			if !tc.valid && !unrunnable(ds) {
				t.Errorf("upstream refuses this story; ours would run it")
			}
		})
	}
}

// TestStoryFormatTimeoutNull: timeout: ~ arms no timeout and loads on
// upstream; ours read an empty block (missing 'after' field).
func TestStoryFormatTimeoutNull(t *testing.T) {
	runVerdicts(t, []verdictCase{
		{"timeout-null", stateFormat("{timeout: ~, on: {go: [{target: b}]}}"), true, true},
		{"timeout-empty", stateFormat("{timeout: {}, on: {go: [{target: b}]}}"), false, false},
	})
}

// TestStoryFormatNullBlocks: a block written ~ is absent on upstream
// (phases, routing.free_form_fallback, one host_interfaces entry: an
// invoke of it is "not declared"); ours read an empty block and refused
// the story. And upstream's view mapping form: an empty key is an absent
// one, template_file excludes a non-empty extends or blocks only, and a
// mapping with neither extends nor template_file is refused.
func TestStoryFormatNullBlocks(t *testing.T) {
	view := func(v string) string { return stateFormat("{view: " + v + ", on: {go: [{target: b}]}}") }
	runVerdicts(t, []verdictCase{
		{"phases-null", storyFormatBase + "phases: ~\n", true, true},
		{"free-form-fallback-null", storyFormatBase + "routing: {free_form_fallback: ~}\n", true, true},
		{"free-form-fallback-empty", storyFormatBase + "routing: {free_form_fallback: {}}\n", false, false},
		{"host-interface-null", storyFormatBase + "host_interfaces: {v: ~}\n", true, true},
		{"host-interface-null-invoked", strings.Replace(storyFormatBase, "a: {view: hi,", "a: {view: hi, on_enter: [{invoke: iface.v.diff}],", 1) + "host_interfaces: {v: ~}\n", false, false},
		{"view-template-file-extends-empty", view("{template_file: x, extends: ''}"), true, true},
		{"view-template-file-blocks-empty", view("{template_file: x, blocks: {}}"), true, true},
		{"view-template-file-extends-null", view("{template_file: x, extends: ~}"), true, true},
		{"view-template-file-blocks", view("{template_file: x, blocks: {b: [{prose: x}]}}"), false, false},
		{"view-extends-empty", view("{extends: ''}"), false, false},
		{"view-extends-null-blocks", view("{extends: ~, blocks: {b: [{prose: x}]}}"), false, false},
		{"view-empty-mapping", view("{}"), false, false},
		{"view-template-file-empty", view("{template_file: ''}"), false, false},
		{"view-extends", view("{extends: base}"), true, true},
	})
}

// TestStoryFormatEmptyPhases: upstream expands phases: only from a
// non-empty graph; a block without one is ignored, with or without
// phase_templates (ours refused it: "declared but no phase_templates" /
// "phases.template: required"). A graph with an entry is checked.
func TestStoryFormatEmptyPhases(t *testing.T) {
	tpl := "phase_templates: {t: {states: {}}}\n"
	runVerdicts(t, []verdictCase{
		{"empty", storyFormatBase + "phases: {}\n", true, true},
		{"empty-with-templates", storyFormatBase + tpl + "phases: {}\n", true, true},
		{"template-no-templates", storyFormatBase + "phases: {template: t}\n", true, true},
		{"empty-graph-no-template", storyFormatBase + tpl + "phases: {template: '', graph: {}}\n", true, true},
		{"graph-no-templates", storyFormatBase + "phases: {graph: {p1: {who: x}}}\n", false, false},
		{"graph-no-template", storyFormatBase + tpl + "phases: {graph: {p1: {who: x}}}\n", false, false},
		{"graph-null-entry", storyFormatBase + tpl + "phases: {template: t, graph: {p1: ~}}\n", false, false},
	})
}

// TestStoryFormatDuplicateKeyInValue: upstream's decoder refuses a key
// written twice in every mapping, free-form values too (with:, and a
// mapping nested in it); ours kept the last one and loaded. A merge key
// overriding an earlier key is no duplicate on either.
func TestStoryFormatDuplicateKeyInValue(t *testing.T) {
	eff := func(e string) string {
		return strings.Replace(storyFormatBase, "a: {view: hi,", "a: {view: hi, on_enter: ["+e+"],", 1)
	}
	runVerdicts(t, []verdictCase{
		{"with", eff("{invoke: host.run, with: {a: 1, a: 2}}"), false, false},
		{"with-nested", eff("{invoke: host.run, with: {n: {a: 1, a: 2}}}"), false, false},
		{"with-merge", eff("{invoke: host.run, with: {a: 1, <<: {a: 2}}}"), true, true},
	})
}
