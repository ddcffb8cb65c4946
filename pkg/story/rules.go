package story

import "kitsoki/pkg/diag"

// Rule is one check of the story format.
type Rule = diag.Rule

// The rules a load reports under (pkg/lint reports some of them too).
var (
	RuleYAMLSyntax = &Rule{ID: "yaml-syntax", Severity: diag.Error, Summary: "YAML syntax errors and tab indentation",
		Example: "states:\n\tstart: {}"}
	RuleDuplicateKey = &Rule{ID: "duplicate-key", Severity: diag.Error, Summary: "a mapping key is declared twice",
		Example: "states:\n  end: {}\n  end: {}"}
	RuleType = &Rule{ID: "type", Severity: diag.Error, Summary: "a value has the wrong YAML type (string, list, mapping, bool, number)",
		Example: "states:\n  start: {terminal: maybe}"}
	RuleUnknownKey = &Rule{ID: "unknown-key", Severity: diag.Error, Summary: "a key is not part of the story format (with a did-you-mean suggestion)",
		Example: "app: {idd: demo}"}
	RuleIO = &Rule{ID: "io", Severity: diag.Error, Summary: "a story file cannot be read",
		Example: "app.yaml -> ../generated/app.yaml   # a link to a file that does not exist"}
	RuleInclude = &Rule{ID: "include", Severity: diag.Error, Summary: "include: globs and the merge of included files",
		Example: "include: [parts/*.yaml]   # matches nothing"}
	RuleImports = &Rule{ID: "imports", Severity: diag.Error, Summary: "imports: children: source, alias, cycles, entry, exits, world_in, hosts, intents, overrides",
		Example: "imports:\n  Bad: {source: ./child}"}
	RuleRoot = &Rule{ID: "root", Severity: diag.Error, Summary: "root names an existing state",
		Example: "root: nowhere"}
	RuleState = &Rule{ID: "state", Severity: diag.Error, Summary: "state-level value checks: decider, write_mode, transcript, theme, intercept_drive, timeout, off-ramp, default_intent",
		Example: "start: {write_mode: sometimes}"}
	RuleView = &Rule{ID: "view", Severity: diag.Error, Summary: "view structure and choice cross-references",
		Example: "view:\n  - choice: {intent: undeclared}"}
	RuleIntent = &Rule{ID: "intent", Severity: diag.Error, Summary: "intents used in on:, default_intent and emit_intent are declared",
		Example: "on:\n  undeclared: [{target: end}]"}
	RuleEffect = &Rule{ID: "effect", Severity: diag.Error, Summary: "effect shape: background, on_complete, target, emit_intent rules; increment deltas (a numeric string or a float loads with a warning)",
		Example: "on_enter:\n  - {background: true, say: hi}"}
	RuleAgentPlugin = &Rule{ID: "agent-plugin", Severity: diag.Error, Summary: "agent_plugins: declarations (reference §7)",
		Example: "agent_plugins:\n  agent.sub: {plugin: subprocess}"}
	RuleProvider = &Rule{ID: "provider", Severity: diag.Error, Summary: "providers: declarations and references",
		Example: "providers:\n  fast: {effort: turbo}"}
	RulePersona = &Rule{ID: "persona", Severity: diag.Error, Summary: "agents: persona declarations (reference §3.5)",
		Example: "agents:\n  judge: {tools: [Bash]}   # no bash_profile"}
	RulePhases = &Rule{ID: "phases", Severity: diag.Error, Summary: "phases: and phase_templates: structure",
		Example: "phases: {template: missing}"}
	RuleMetaMode = &Rule{ID: "meta-mode", Severity: diag.Error, Summary: "meta_modes: declarations",
		Example: "meta_modes:\n  help: {}"}
	RuleRouting = &Rule{ID: "routing", Severity: diag.Error, Summary: "routing: block and intent synonyms",
		Example: "routing: {semantic_high_bar: 1.5}"}
	RuleOutsideRoot = &Rule{ID: "outside-root", Severity: diag.Error,
		Summary: "every file a story names (include:, imports:, prompts: overlay and shared, system_prompt_path, templates) lies inside the project root; nothing outside is read",
		Example: "include: [../../home/me/.ssh/id_rsa]"}
	RuleNumberText = &Rule{ID: "number-text", Severity: diag.Warning, LintOnly: true,
		Summary: "a plain value that looks like a number but has no decimal point (1e3, 08, a 20-digit integer) is read as text, as the existing engine reads it",
		Example: "world:\n  limit: {type: any, default: 1e3}   # the text \"1e3\"; write 1.0e3"}
	RuleOnExit = &Rule{ID: "on-exit", Severity: diag.Error, LintOnly: true,
		Summary: "a state declares on_exit:, which the story format does not have: the existing engine refuses the story (unknown field \"on_exit\"); kitsoki runs it with the effects never run",
		Example: "a: {on_exit: [{say: bye}]}"}
	RuleInternal = &Rule{ID: "internal", Severity: diag.Error, Summary: "an internal loader error (a bug: please report it)",
		Example: "(none: report the story that triggers it)"}
)

// LoadRules returns the rules a load reports under, in documentation order.
func LoadRules() []*Rule {
	return []*Rule{
		RuleYAMLSyntax, RuleDuplicateKey, RuleType, RuleUnknownKey, RuleIO, RuleInclude,
		RuleImports, RuleRoot, RuleState, RuleView, RuleIntent, RuleEffect, RuleAgentPlugin,
		RuleProvider, RulePersona, RuleRouting, RulePhases, RuleMetaMode, RuleOutsideRoot, RuleNumberText, RuleOnExit, RuleInternal,
	}
}
