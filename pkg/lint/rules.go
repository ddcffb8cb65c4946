package lint

import (
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// Rule is one check of the story format: the shared diag.Rule (id,
// severity, summary, example, LintOnly: upstream's loader accepts a story
// with the finding; see Blocking).
//
// Every diagnostic the package reports is created from a Rule value, never
// from a string: reporter.errf/warnf take a *Rule.
type Rule = diag.Rule

var (
	ruleApp = &Rule{ID: "app", Severity: diag.Error, Summary: "app.id is required; app.context and app.context_path are exclusive",
		Example: "app: {name: demo}"}
	ruleInitial = &Rule{ID: "initial", Severity: diag.Error, Summary: "a compound state's initial names a child; parallel states have 2+ regions and no initial; states: on a state not typed compound are never entered (warning)",
		Example: "flow: {type: compound, initial: missing, states: {a: {}}}"}
	ruleViewRender = &Rule{ID: "view-render", Severity: diag.Error, LintOnly: true,
		Summary: "a view element upstream loads but cannot render at run time (pongo2 ternary, map literal in when:)",
		Example: "view:\n  - text: \"{{ a ? b : c }}\""}
	ruleTarget = &Rule{ID: "target", Severity: diag.Error, Summary: "transition, timeout and on_complete targets resolve (absolute, dotted, ../, ., @exit:)",
		Example: "on:\n  go: [{target: nowhere}]"}
	ruleOnErrorTarget = &Rule{ID: "on-error-target", Severity: diag.Error, LintOnly: true,
		Summary: "an on_error: target resolves (against the dispatch state) to a state; a dangling one can never fire",
		Example: "on_enter:\n  - {invoke: host.shell.run, on_error: eror}"}
	ruleRelevantWorld = &Rule{ID: "relevant-world", Severity: diag.Error, Summary: "relevant_world keys are declared in world:",
		Example: "start: {relevant_world: [nope]}"}
	ruleHosts = &Rule{ID: "hosts", Severity: diag.Error, Summary: "invokes are in the hosts: allow-list when it is non-empty",
		Example: "hosts: [host.fs.read]\n# ... invoke: host.shell.run"}
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
	ruleDecideSchema = &Rule{ID: "decide-schema", Severity: diag.Warning, LintOnly: true,
		Summary: "host.agent.decide without a schema",
		Example: "- {invoke: host.agent.decide, with: {prompt: p.md}}"}
	ruleSelection = &Rule{ID: "selection", Severity: diag.Error, LintOnly: true,
		Summary: "selection: blocks: known keys, evidence file exists",
		Example: "selection: {profile: fast, evidence: evals/missing.json}"}
	ruleExits = &Rule{ID: "exits", Severity: diag.Error, Summary: "@exit:<name> targets name an exit declared in exits:",
		Example: "on:\n  go: [{target: \"@exit:done\"}]   # no exits:"}
	ruleDecider = &Rule{ID: "decider", Severity: diag.Error, Summary: "decider: block",
		Example: "decider: {threshold: 2}"}
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
	ruleAgentTemplate = &Rule{ID: "agent-template", Severity: diag.Error, LintOnly: true,
		Summary: "a templated agent: alias that is one world variable renders to declared aliases",
		Example: "- {invoke: host.agent.ask, agent: \"{{ world.who }}\"}   # who: {default: agent.nope}"}
	ruleCallTimeout = &Rule{ID: "call-timeout", Severity: diag.Error,
		Summary: "an effect's timeout: is a positive duration on a host.agent.* invoke",
		Example: "- {invoke: host.agent.ask, timeout: soon}"}
)

// registry lists every rule in documentation order.
var registry = []*Rule{
	story.RuleYAMLSyntax, story.RuleDuplicateKey, story.RuleType, story.RuleUnknownKey, story.RuleIO, story.RuleInclude,
	story.RuleImports, ruleApp, story.RuleRoot, ruleInitial, story.RuleState, story.RuleView, ruleViewRender,
	ruleTarget, ruleOnErrorTarget, story.RuleIntent, ruleRelevantWorld, ruleHosts, story.RuleEffect,
	story.RuleAgentPlugin, story.RuleProvider, story.RulePersona, ruleSecretTooShort, ruleAgentInvoke, ruleAgentAlias,
	ruleAgentFile, rulePromptRoot, story.RuleOutsideRoot, ruleAgentTemplate, ruleCallTimeout, ruleSchema, ruleGrammar, ruleExpr, ruleTemplate, rulePongo,
	ruleEffectKinds, ruleOnceBind, ruleStrictMismatch, ruleBareExpr, ruleUnreachable, ruleDecideSchema, ruleEmitAfterBind, ruleViewRoot, ruleHostRunInts,
	ruleSelection, ruleExits, story.RulePhases, story.RuleMetaMode, ruleDecider, story.RuleRouting,
	ruleInterfaces, ruleStarlark, ruleIgnore, story.RuleInternal,
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
