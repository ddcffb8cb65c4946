package story

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
)

// Rule is one check of the story format: the shared diag.Rule (id,
// severity, summary, example, LintOnly: upstream's loader accepts a story
// with the finding; see Blocking).
//
// Every diagnostic the package reports is created from a Rule value, never
// from a string: reporter.errf/warnf take a *Rule.
type Rule = diag.Rule

var (
	ruleYAMLSyntax = &Rule{ID: "yaml-syntax", Severity: diag.Error, Summary: "YAML syntax errors and tab indentation",
		Example: "states:\n\tstart: {}"}
	ruleDuplicateKey = &Rule{ID: "duplicate-key", Severity: diag.Error, Summary: "a mapping key is declared twice",
		Example: "states:\n  end: {}\n  end: {}"}
	ruleType = &Rule{ID: "type", Severity: diag.Error, Summary: "a value has the wrong YAML type (string, list, mapping, bool, number)",
		Example: "states:\n  start: {terminal: maybe}"}
	ruleUnknownKey = &Rule{ID: "unknown-key", Severity: diag.Error, Summary: "a key is not part of the story format (with a did-you-mean suggestion)",
		Example: "app: {idd: demo}"}
	ruleIO = &Rule{ID: "io", Severity: diag.Error, Summary: "a story file cannot be read",
		Example: "app.yaml -> ../generated/app.yaml   # a link to a file that does not exist"}
	ruleInclude = &Rule{ID: "include", Severity: diag.Error, Summary: "include: globs and the merge of included files",
		Example: "include: [parts/*.yaml]   # matches nothing"}
	ruleImports = &Rule{ID: "imports", Severity: diag.Error, Summary: "imports: children: source, alias, cycles, entry, exits, world_in, hosts, intents, overrides",
		Example: "imports:\n  Bad: {source: ./child}"}
	ruleApp = &Rule{ID: "app", Severity: diag.Error, Summary: "app.id is required; app.context and app.context_path are exclusive",
		Example: "app: {name: demo}"}
	ruleRoot = &Rule{ID: "root", Severity: diag.Error, Summary: "root names an existing state",
		Example: "root: nowhere"}
	ruleInitial = &Rule{ID: "initial", Severity: diag.Error, Summary: "a compound state's initial names a child; parallel states have 2+ regions and no initial; states: on a state not typed compound are never entered (warning)",
		Example: "flow: {type: compound, initial: missing, states: {a: {}}}"}
	ruleState = &Rule{ID: "state", Severity: diag.Error, Summary: "state-level value checks: decider, write_mode, transcript, theme, intercept_drive, timeout, off-ramp, default_intent",
		Example: "start: {write_mode: sometimes}"}
	ruleView = &Rule{ID: "view", Severity: diag.Error, Summary: "view structure and choice cross-references",
		Example: "view:\n  - choice: {intent: undeclared}"}
	ruleViewRender = &Rule{ID: "view-render", Severity: diag.Error, LintOnly: true,
		Summary: "a view element upstream loads but cannot render at run time (pongo2 ternary, map literal in when:)",
		Example: "view:\n  - text: \"{{ a ? b : c }}\""}
	ruleTarget = &Rule{ID: "target", Severity: diag.Error, Summary: "transition, timeout and on_complete targets resolve (absolute, dotted, ../, ., @exit:)",
		Example: "on:\n  go: [{target: nowhere}]"}
	ruleOnErrorTarget = &Rule{ID: "on-error-target", Severity: diag.Error, LintOnly: true,
		Summary: "an on_error: target resolves (against the dispatch state) to a state; a dangling one can never fire",
		Example: "on_enter:\n  - {invoke: host.shell.run, on_error: eror}"}
	ruleIntent = &Rule{ID: "intent", Severity: diag.Error, Summary: "intents used in on:, default_intent and emit_intent are declared",
		Example: "on:\n  undeclared: [{target: end}]"}
	ruleRelevantWorld = &Rule{ID: "relevant-world", Severity: diag.Error, Summary: "relevant_world keys are declared in world:",
		Example: "start: {relevant_world: [nope]}"}
	ruleHosts = &Rule{ID: "hosts", Severity: diag.Error, Summary: "invokes are in the hosts: allow-list when it is non-empty",
		Example: "hosts: [host.fs.read]\n# ... invoke: host.shell.run"}
	ruleEffect = &Rule{ID: "effect", Severity: diag.Error, Summary: "effect shape: background, on_complete, target, emit_intent rules; increment deltas (a numeric string or a float loads with a warning)",
		Example: "on_enter:\n  - {background: true, say: hi}"}
	ruleAgentPlugin = &Rule{ID: "agent-plugin", Severity: diag.Error, Summary: "agent_plugins: declarations (reference §7)",
		Example: "agent_plugins:\n  agent.sub: {plugin: subprocess}"}
	ruleProvider = &Rule{ID: "provider", Severity: diag.Error, Summary: "providers: declarations and references",
		Example: "providers:\n  fast: {effort: turbo}"}
	rulePersona = &Rule{ID: "persona", Severity: diag.Error, Summary: "agents: persona declarations (reference §3.5)",
		Example: "agents:\n  judge: {tools: [Bash]}   # no bash_profile"}
	ruleAgentInvoke = &Rule{ID: "agent-invoke", Severity: diag.Error, Summary: "host.agent.<verb> invokes: verb, with.agent persona, verb/tool cross-checks",
		Example: "- invoke: host.agent.ponder"}
	ruleAgentAlias = &Rule{ID: "agent-alias", Severity: diag.Error, LintOnly: true,
		Summary: "an effect-level agent: alias is declared in agent_plugins (upstream silently falls back to agent.claude)",
		Example: "- {invoke: host.agent.ask, agent: agent.nope}"}
	ruleAgentFile = &Rule{ID: "agent-file", Severity: diag.Error, LintOnly: true,
		Summary: "prompt, prompt_path and schema files of agent invokes (and app.context_path) exist",
		Example: "with: {schema: schemas/missing.json}"}
	ruleSchema = &Rule{ID: "schema", Severity: diag.Error, LintOnly: true,
		Summary: "agent schemas compile and $refs stay inside schemas/",
		Example: "with: {schema: schemas/bad.json}   # {\"type\": 3}"}
	ruleGrammar = &Rule{ID: "grammar", Severity: diag.Error, Summary: "decide schemas of a builtin.local_llm grammar: true alias stay in the llama.cpp grammar subset",
		Example: "\"pattern\": \"a+\"   # not anchored"}
	ruleExpr = &Rule{ID: "expr", Severity: diag.Error, Summary: "when: guards compile under kitsoki's expr whitelist",
		Example: "- {when: \"sum(world.xs) > 1\", target: end}"}
	ruleTemplate = &Rule{ID: "template", Severity: diag.Error, Summary: "{{ }} value templates in set/with/slots/emit_intent/bind compile",
		Example: "set: {n: \"{{ world.n + }}\"}"}
	rulePongo = &Rule{ID: "pongo", Severity: diag.Error, LintOnly: true,
		Summary: "pongo2 templates in say, views and prompt files compile",
		Example: "say: \"{% if %}\""}
	ruleEffectKinds = &Rule{ID: "effect-kinds", Severity: diag.Warning, LintOnly: true,
		Summary: "an effect carries more than one of set/increment/say/invoke (only the first runs)",
		Example: "- {set: {a: 1}, say: hi}"}
	ruleOnceBind = &Rule{ID: "once-bind", Severity: diag.Error, Summary: "once: true needs a non-empty bind:",
		Example: "- {invoke: host.shell.run, once: true}"}
	ruleStrictMismatch = &Rule{ID: "strict-mismatch", Severity: diag.Warning, LintOnly: true,
		Summary: "a value kitsoki run/test --strict reads differently from the existing engine: a quoted bool or number set on a typed world key, an increment of a key that is not an integer",
		Example: "world: {flag: {type: bool, default: true}}\n# ... set: {flag: \"false\"}"}
	ruleBareExpr = &Rule{ID: "bare-expr", Severity: diag.Warning, LintOnly: true,
		Summary: "a with: value looks like an expression but has no {{ }}",
		Example: "with: {cwd: world.workdir}"}
	ruleUnreachable = &Rule{ID: "unreachable", Severity: diag.Warning, LintOnly: true,
		Summary: "a state cannot be reached from root (literal targets and templated targets with statically known values)",
		Example: "states:\n  start: {}\n  orphan: {}"}
	ruleEmitAfterBind = &Rule{ID: "emit-after-bind", Severity: diag.Warning, LintOnly: true,
		Summary: "an emit_intent guard reads a key a call of its chain binds where no post-bind pass re-reads it (a transition's effects:, a background job's on_complete target): it never fires that turn",
		Example: "effects:\n  - {invoke: host.run, bind: {n: count}}\n  - {when: \"world.n > 0\", emit_intent: done}"}
	ruleViewRoot = &Rule{ID: "view-root", Severity: diag.Warning, LintOnly: true,
		Summary: "a grand-child's extends:/template_file: view is read from the top-level import's directory, as the existing engine reads it",
		Example: "imports: {kid: {source: ../child}}   # child imports ../gkid, whose state has view: {extends: base}"}
	ruleHostRunInts = &Rule{ID: "host-run-int", Severity: diag.Warning, LintOnly: true,
		Summary: "a host.run timeout: or args element is a YAML integer, which the existing engine refuses (the call fails there)",
		Example: "- {invoke: host.run, with: {cmd: sleep, args: [1], timeout: 30}}"}
	ruleBareName = &Rule{ID: "bare-name", Severity: diag.Warning, LintOnly: true,
		Summary: "a guard or effect value names a bare identifier that is no root (not world.x or slots.x): both engines fail where they reach it",
		Example: "on_complete:\n  - set: {s: \"{{ last_job_status }}\"}"}
	ruleRunRoot = &Rule{ID: "run-root", Severity: diag.Warning, LintOnly: true,
		Summary: "a guard or effect value reads run.id or run.turn, which are always \"\" and 0 (the existing engine has no run context)",
		Example: "- set: {t: \"{{ run.turn }}\"}"}
	ruleCrossRegion = &Rule{ID: "cross-region", Severity: diag.Warning, LintOnly: true,
		Summary: "an arm inside a parallel state targets another region's state: the target replaces the firing region's leaf (two leaves of one region, none of the other)",
		Example: "p: {type: parallel, states: {ra: {states: {a1: {on: {x: [{target: p.rb.b2}]}}}}, rb: ...}}"}
	ruleDecideSchema = &Rule{ID: "decide-schema", Severity: diag.Warning, LintOnly: true,
		Summary: "host.agent.decide without a schema",
		Example: "- {invoke: host.agent.decide, with: {prompt: p.md}}"}
	ruleSelection = &Rule{ID: "selection", Severity: diag.Error, LintOnly: true,
		Summary: "selection: blocks: known keys, evidence file exists",
		Example: "selection: {profile: fast, evidence: evals/missing.json}"}
	ruleExits = &Rule{ID: "exits", Severity: diag.Error, Summary: "@exit:<name> targets name an exit declared in exits:",
		Example: "on:\n  go: [{target: \"@exit:done\"}]   # no exits:"}
	rulePhases = &Rule{ID: "phases", Severity: diag.Error, Summary: "phases: and phase_templates: structure",
		Example: "phases: {template: missing}"}
	ruleMetaMode = &Rule{ID: "meta-mode", Severity: diag.Error, Summary: "meta_modes: declarations",
		Example: "meta_modes:\n  help: {}"}
	ruleDecider = &Rule{ID: "decider", Severity: diag.Error, Summary: "decider: block",
		Example: "decider: {threshold: 2}"}
	ruleRouting = &Rule{ID: "routing", Severity: diag.Error, Summary: "routing: block and intent synonyms",
		Example: "routing: {semantic_high_bar: 1.5}"}
	ruleInterfaces = &Rule{ID: "interfaces", Severity: diag.Error, Summary: "host_interfaces and iface.<name>.<op> invokes",
		Example: "- invoke: iface.vcs.push   # vcs not declared"}
	ruleStarlark = &Rule{ID: "starlark", Severity: diag.Error, Summary: "host.starlark.run scripts exist inside the story with their sidecar",
		Example: "- {invoke: host.starlark.run, with: {script: missing.star}}"}
	ruleIgnore = &Rule{ID: "ignore", Severity: diag.Warning, LintOnly: true,
		Summary: "a # kitsoki:ignore comment names an unknown rule or an error (which cannot be silenced), or (with --strict) suppresses nothing",
		Example: "x: 1  # kitsoki:ignore no-such-rule"}
	ruleSecretTooShort = &Rule{ID: "secret-too-short", Severity: diag.Warning, LintOnly: true,
		Summary: "a ${VAR} secret in agent_plugins env:/headers: is under 4 bytes and cannot be masked in traces and logs",
		Example: "agent_plugins:\n  agent.x: {plugin: subprocess, command: x, env: {LEVEL: \"${L}\"}}   # L=1"}
	rulePromptRoot = &Rule{ID: "prompt-root", Severity: diag.Error, LintOnly: true,
		Summary: "prompt:/prompt_path: files stay inside the story's roots (story, imported children, prompt overlays); the call fails at run time otherwise",
		Example: "with: {prompt_path: ../../etc/passwd}"}
	ruleOutsideRoot = &Rule{ID: "outside-root", Severity: diag.Error,
		Summary: "every file a story names (include:, imports:, prompts: overlay and shared, system_prompt_path, templates) lies inside the project root; nothing outside is read",
		Example: "include: [../../home/me/.ssh/id_rsa]"}
	ruleAgentTemplate = &Rule{ID: "agent-template", Severity: diag.Error, LintOnly: true,
		Summary: "a templated agent: alias that is one world variable renders to declared aliases",
		Example: "- {invoke: host.agent.ask, agent: \"{{ world.who }}\"}   # who: {default: agent.nope}"}
	ruleCallTimeout = &Rule{ID: "call-timeout", Severity: diag.Error,
		Summary: "an effect's timeout: is a positive duration on a host.agent.* invoke",
		Example: "- {invoke: host.agent.ask, timeout: soon}"}
	ruleInternal = &Rule{ID: "internal", Severity: diag.Error, Summary: "an internal loader error (a bug: please report it)",
		Example: "(none: report the story that triggers it)"}
)

// registry lists every rule in documentation order.
var registry = []*Rule{
	ruleYAMLSyntax, ruleDuplicateKey, ruleType, ruleUnknownKey, ruleIO, ruleInclude,
	ruleImports, ruleApp, ruleRoot, ruleInitial, ruleState, ruleView, ruleViewRender,
	ruleTarget, ruleOnErrorTarget, ruleIntent, ruleRelevantWorld, ruleHosts, ruleEffect,
	ruleAgentPlugin, ruleProvider, rulePersona, ruleSecretTooShort, ruleAgentInvoke, ruleAgentAlias,
	ruleAgentFile, rulePromptRoot, ruleOutsideRoot, ruleAgentTemplate, ruleCallTimeout, ruleSchema, ruleGrammar, ruleExpr, ruleTemplate, rulePongo,
	ruleEffectKinds, ruleOnceBind, ruleStrictMismatch, ruleBareExpr, ruleUnreachable, ruleDecideSchema, ruleEmitAfterBind, ruleViewRoot, ruleHostRunInts, ruleBareName, ruleRunRoot, ruleCrossRegion,
	ruleSelection, ruleExits, rulePhases, ruleMetaMode, ruleDecider, ruleRouting,
	ruleInterfaces, ruleStarlark, ruleIgnore, ruleInternal,
}

// Rules returns every rule, sorted by id. The values are copies: changing
// them changes nothing in the package.
func Rules() []Rule {
	out := diag.Values(registry)
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// RuleSummaries maps every rule id to its one-line summary (SARIF, docs).
func RuleSummaries() map[string]string {
	out := make(map[string]string, len(registry))
	for _, r := range registry {
		out[r.ID] = r.Summary
	}
	return out
}

// LookupRule returns the rule with id, if there is one.
func LookupRule(id string) (Rule, bool) {
	for _, r := range registry {
		if r.ID == id {
			return *r, true
		}
	}
	return Rule{}, false
}

// Blocking reports whether d makes a story unrunnable: an error of a rule
// upstream's loader also enforces. Warnings never block; errors of a
// LintOnly rule (a missing prompt file, a dangling on_error, a view that
// cannot render, ...) do not block either: run, test and eval print them as
// warnings and go ahead, as upstream would load the story. An error with an
// id this package does not know (another package's finding) blocks.
func Blocking(d diag.Diagnostic) bool {
	if d.Severity != diag.Error {
		return false
	}
	r, ok := LookupRule(d.Rule)
	return !ok || !r.LintOnly
}

// Unrunnable reports whether any diagnostic of ds is Blocking.
func Unrunnable(ds []diag.Diagnostic) bool {
	return slices.ContainsFunc(ds, Blocking)
}

// IgnoreRule is the rule of findings about `# kitsoki:ignore` comments
// (unknown ids, suppressions that suppress nothing), reported by the
// validate job, which sees every diagnostic.
func IgnoreRule() Rule { return *ruleIgnore }
