package main

// The lint kind's mistakes (story-format.md §9, each refused upstream)
// and near-misses (each check's neighbour that upstream loads: the same
// key spelled validly, an edge value, an unusual legal form of §10).
// apply returns false when the story lacks what the change needs.

type lintChange struct {
	name  string
	apply func(g *gen, s *lintStory) bool
}

// always wraps a change that applies to every story.
func always(f func(g *gen, s *lintStory)) func(g *gen, s *lintStory) bool {
	return func(g *gen, s *lintStory) bool { f(g, s); return true }
}

func lintSetState(path, key string, v any) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) { s.state(path)[key] = v })
}

func lintEnter(path string, e m) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) { s.addEnter(path, e) })
}

func lintArm(path, intent string, arm m) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) { s.setOn(path, intent, arm) })
}

func lintTop(key string, v any) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) { s.app[key] = v })
}

func lintAgent(k string, v any) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) { s.app["agents"].(m)[k] = v })
}

func lintPlugin(k string, v any) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) {
		ap, ok := s.app["agent_plugins"].(m)
		if !ok {
			ap = m{}
			s.app["agent_plugins"] = ap
		}
		for ap[k] != nil { // another change's alias: keep both
			k += "x"
		}
		ap[k] = v
	})
}

func lintKidOnly(f func(g *gen, s *lintStory)) func(g *gen, s *lintStory) bool {
	return func(g *gen, s *lintStory) bool {
		if im, _ := s.app["imports"].(m); !s.kid || im["kid"] == nil {
			return false // no import, or a mistake took it
		}
		f(g, s)
		return true
	}
}

func lintInclOnly(f func(g *gen, s *lintStory)) func(g *gen, s *lintStory) bool {
	return func(g *gen, s *lintStory) bool {
		if !s.incl {
			return false
		}
		f(g, s)
		return true
	}
}

// allowHost lists h under hosts: when the story has an allow-list.
func (s *lintStory) allowHost(h string) {
	if l, ok := s.app["hosts"].([]any); ok {
		s.app["hosts"] = append(l, h)
	}
}

func (s *lintStory) kidImport() m { return s.app["imports"].(m)["kid"].(m) }
func (s *lintStory) room() m      { return s.files["rooms/extra.yaml"].(m) }

// lintMistakes are refused upstream (story-format.md §9).
var lintMistakes = []lintChange{
	// §9.1 parse, include, agents
	{"unknown-state-key", lintSetState("c.c1", "sett", 1)},
	{"unknown-effect-key", lintEnter("c.c2", m{"sett": m{"n": 1}})},
	{"unknown-top-key", lintTop("rooting", m{"enabled": true})},
	{"transition-on-error", lintArm("ask", "tick", m{"target": ".", "on_error": "home"})},
	{"duplicate-top-key", always(func(_ *gen, s *lintStory) { s.tail = "root: home\n" })},
	{"app-routing", always(func(_ *gen, s *lintStory) { s.app["app"].(m)["routing"] = m{"enabled": true} })},
	{"view-no-kind", lintSetState("c.c1", "view", []any{m{"when": "world.n > 0"}})},
	{"view-two-kinds", lintSetState("c.c1", "view", []any{m{"prose": "a", "heading": "b"}})},
	{"list-item-empty", lintSetState("done", "view", []any{m{"list": m{"items": []any{"a", ""}}}})},
	{"list-item-no-label", lintSetState("done", "view", []any{m{"list": m{"items": []any{m{"hint": "h"}}}}})},
	{"list-nested-when", lintSetState("done", "view", []any{m{"list": m{"items": []any{"a"}, "when": "world.n > 0"}}})},
	{"view-template-file-extends", lintSetState("done", "view", m{"template_file": "x.pongo", "extends": "base", "blocks": m{}})},
	{"off-ramp-word", lintSetState("ask", "agent_off_ramp", "maybe")},
	{"bash-profile-form", lintAgent("sh", m{"system_prompt": "x", "tools": []any{"Bash"}, "bash_profile": "rw"})},
	{"cache-max-age", lintTop("routing", m{"cache_max_age": "3x"})},
	{"agent-both-prompts", lintAgent("two", m{"system_prompt": "x", "system_prompt_path": "prompts/sys.md"})},
	{"agent-no-prompt", lintAgent("none", m{"model": "claude-haiku-4-5"})},
	{"agent-prompt-file-missing", lintAgent("far", m{"system_prompt_path": "prompts/missing.md"})},
	{"agent-effort", lintAgent("eff", m{"system_prompt": "x", "effort": "extreme"})},
	{"agent-empty", lintAgent("nil", nil)},
	{"agent-cwd-unset", lintAgent("wd", m{"system_prompt": "x", "cwd": "${GENLINT_NOT_SET}/w"})},
	{"agent-bash-ask", always(func(_ *gen, s *lintStory) {
		s.app["agents"].(m)["rev"].(m)["tools"] = []any{"Read", "Bash"}
	})},
	{"agent-mutation-ask", always(func(_ *gen, s *lintStory) {
		s.app["agents"].(m)["rev"].(m)["tools"] = []any{"Read", "Edit"}
	})},
	{"include-state-collides", lintInclOnly(func(_ *gen, s *lintStory) { s.room()["states"].(m)["done"] = m{"terminal": true} })},
	{"include-intent-collides", lintInclOnly(func(_ *gen, s *lintStory) { s.room()["intents"].(m)["go"] = m{"description": "x"} })},
	{"include-world-collides", lintInclOnly(func(_ *gen, s *lintStory) { s.room()["world"].(m)["n"] = m{"type": "int", "default": 1} })},
	{"include-unknown-key", lintInclOnly(func(_ *gen, s *lintStory) { s.room()["statez"] = m{} })},
	{"include-bad-glob", always(func(_ *gen, s *lintStory) { s.app["include"] = []any{"rooms/[.yaml"} })},
	// §9.2 imports
	{"import-alias", lintKidOnly(func(_ *gen, s *lintStory) {
		s.app["imports"] = m{"Kid": s.kidImport()}
		s.setOn("home", "enter", m{"target": "Kid"})
	})},
	{"import-no-source", lintKidOnly(func(_ *gen, s *lintStory) { delete(s.kidImport(), "source") })},
	{"import-missing-source", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["source"] = "./nokid" })},
	{"import-unknown-exit", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["exits"].(m)["gone"] = m{"to": "home"} })},
	{"import-unmapped-exit", lintKidOnly(func(_ *gen, s *lintStory) { delete(s.kidImport(), "exits") })},
	{"import-world-in", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["world_in"] = m{"zz": "1"} })},
	{"import-hosts-value", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["hosts"] = "some" })},
	{"import-alias-collides", lintKidOnly(func(_ *gen, s *lintStory) {
		s.app["states"].(m)["kid"] = m{"view": "K"}
	})},
	{"import-reach-in", lintKidOnly(func(_ *gen, s *lintStory) { s.setOn("home", "enter", m{"target": "kid.k2"}) })},
	{"import-entry-missing", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["entry"] = "k9" })},
	{"import-empty", lintKidOnly(func(_ *gen, s *lintStory) { s.app["imports"].(m)["kid"] = nil })},
	// §9.3 phases
	{"phases-no-templates", lintTop("phases", m{"template": "t", "graph": m{"a": m{"next": m{}}}})},
	// §9.4 interfaces, exits
	{"iface-undeclared", lintEnter("decide", m{"invoke": "iface.vcs.diff"})},
	{"iface-no-default", lintTop("host_interfaces", m{"vcs": m{"description": "x", "operations": m{"diff": m{}}}})},
	{"exit-undeclared", always(func(_ *gen, s *lintStory) {
		s.app["exits"] = m{"out": m{"description": "leave"}}
		s.setOn("done", "back", m{"target": "@exit:nope"})
	})},
	{"exit-no-exits", always(func(_ *gen, s *lintStory) {
		delete(s.app, "exits")
		s.setOn("ask", "tick", m{"target": "@exit:out"})
	})},
	// §9.5 plugins, providers
	{"plugin-prefix", lintPlugin("local", m{"plugin": "subprocess", "command": "echo"})},
	{"plugin-missing", lintPlugin("agent.x", m{"command": "echo"})},
	{"plugin-unknown", lintPlugin("agent.x", m{"plugin": "cassette"})},
	{"plugin-no-command", lintPlugin("agent.x", m{"plugin": "subprocess", "command": "  "})},
	{"plugin-mcp-endpoint", lintPlugin("agent.x", m{"plugin": "mcp_http"})},
	{"plugin-llm-model", lintPlugin("agent.x", m{"plugin": "builtin.local_llm", "grammar": true})},
	{"plugin-env-unset", lintPlugin("agent.x", m{"plugin": "subprocess", "command": "echo", "env": m{"K": "a${GENLINT_NOT_SET}b"}})},
	{"plugin-header-unset", lintPlugin("agent.x", m{"plugin": "mcp_http", "endpoint": "http://127.0.0.1:1/mcp", "headers": m{"H": "${GENLINT_NOT_SET}"}})},
	{"plugin-null", lintPlugin("agent.x", nil)},
	{"provider-empty", lintTop("providers", m{"p": m{}})},
	{"provider-null", lintTop("providers", m{"p": nil})},
	{"provider-effort", lintTop("providers", m{"p": m{"effort": "huge"}})},
	{"provider-env-unset", lintTop("providers", m{"p": m{"env": m{"K": "${GENLINT_NOT_SET}"}}})},
	// §9.6 validateDef
	{"app-id", always(func(_ *gen, s *lintStory) { delete(s.app["app"].(m), "id") })},
	{"app-context-both", always(func(_ *gen, s *lintStory) {
		s.app["app"].(m)["context"] = "ctx"
		s.app["app"].(m)["context_path"] = "prompts/ctx.md"
	})},
	{"root-missing", always(func(_ *gen, s *lintStory) { delete(s.app, "root") })},
	{"root-unknown", lintTop("root", "hom")},
	{"root-list", lintTop("root", []any{"home"})},
	{"relevant-world", lintSetState("c.c1", "relevant_world", []any{"nn"})},
	{"default-intent-no-arc", lintSetState("c.c1", "default_intent", "put")},
	{"default-intent-undeclared", lintSetState("home", "default_intent", "say")},
	{"default-intent-slot", lintSetState("home", "default_intent", "pick")},
	{"contextual-routing-lane", lintSetState("home", "contextual_routing", m{"enabled": true})},
	{"kv-not-string", lintSetState("done", "view", []any{m{"kv": m{"pairs": m{"n": 5}}}})},
	{"kv-empty", lintSetState("done", "view", []any{m{"kv": m{"pairs": m{}}}})},
	{"list-no-items", lintSetState("done", "view", []any{m{"list": m{"items": []any{}}}})},
	{"banner-empty", lintSetState("done", "view", []any{m{"banner": m{"text": ""}}})},
	{"media-empty", lintSetState("done", "view", []any{m{"media": m{"handle": ""}}})},
	{"choice-two", lintSetState("done", "view", []any{
		m{"choice": m{"mode": "single", "items": []any{m{"label": "a", "intent": "go"}}}},
		m{"choice": m{"mode": "single", "items": []any{m{"label": "b", "intent": "back"}}}}})},
	{"choice-intent", lintSetState("done", "view", []any{m{"choice": m{"mode": "single", "items": []any{m{"label": "a", "intent": "fly"}}}}})},
	{"choice-slot", lintSetState("done", "view", []any{m{"choice": m{"mode": "single", "items": []any{m{"label": "a", "intent": "pick", "slots": m{"z": "a"}}}}}})},
	{"choice-enum", lintSetState("done", "view", []any{m{"choice": m{"mode": "single", "items": []any{m{"label": "a", "intent": "pick", "slots": m{"c": "q"}}}}}})},
	{"transcript-nested", lintSetState("c.c1", "transcript", "persistent")},
	{"transcript-value", lintSetState("home", "transcript", "forever")},
	{"theme-nested", lintSetState("p.ra", "theme", "dark")},
	{"on-undeclared", lintArm("c.c2", "fly", m{"target": "home"})},
	{"target-missing", lintArm("c.c2", "go", m{"target": "c3"})},
	{"target-dotdot", lintArm("c.c1", "back", m{"target": "..c2"})},
	{"host-not-allowed", always(func(_ *gen, s *lintStory) {
		s.app["hosts"] = []any{"host.ok", "host.agent.ask", "host.agent.decide"}
		s.addEnter("done", m{"invoke": "host.nope"})
	})},
	{"with-agent-undeclared", lintEnter("done", m{"invoke": "host.agent.ask", "with": m{"agent": "ghost", "prompt": "x"}})},
	{"with-agent-not-agent", lintEnter("done", m{"invoke": "host.ok", "with": m{"agent": "rev"}})},
	{"background-no-invoke", lintEnter("done", m{"background": true, "set": m{"n": 1}})},
	{"once-no-bind", lintEnter("done", m{"invoke": "host.ok", "once": true})},
	{"target-outside-on-complete", lintEnter("done", m{"target": "home"})},
	{"on-complete-target-set", lintEnter("ask", m{"invoke": "host.ok", "background": true,
		"on_complete": []any{m{"target": "home", "set": m{"n": 1}}}})},
	{"on-complete-background", lintEnter("ask", m{"invoke": "host.ok", "background": true,
		"on_complete": []any{m{"invoke": "host.ok", "background": true}}})},
	{"on-complete-target-missing", lintEnter("ask", m{"invoke": "host.ok", "background": true,
		"on_complete": []any{m{"target": "nowhere"}}})},
	{"emit-intent-target", lintEnter("ask", m{"invoke": "host.ok", "background": true,
		"on_complete": []any{m{"target": "home", "emit_intent": "go"}}})},
	{"emit-intent-undeclared", lintEnter("done", m{"emit_intent": "pick"})},
	{"emit-intent-wildcard", always(func(_ *gen, s *lintStory) {
		s.setOn("done", "*", m{"target": "."})
		s.addEnter("done", m{"emit_intent": "tick"})
	})},
	{"decider-value", lintSetState("home", "decider", "robot")},
	{"timeout-no-after", lintSetState("c.c1", "timeout", m{"target": "home"})},
	{"timeout-after", lintSetState("c.c1", "timeout", m{"after": "5 minutes", "target": "home"})},
	{"timeout-no-target", lintSetState("c.c1", "timeout", m{"after": "5m"})},
	{"timeout-target-missing", lintSetState("c.c1", "timeout", m{"after": "5m", "target": "gone"})},
	{"initial-missing-child", lintSetState("c", "initial", "c9")},
	{"parallel-one-region", always(func(_ *gen, s *lintStory) { delete(s.state("p")["states"].(m), "rb") })},
	{"parallel-initial", lintSetState("p", "initial", "ra")},
	{"off-ramp-terminal", lintSetState("done", "agent_off_ramp", true)},
	{"off-ramp-conversational", always(func(_ *gen, s *lintStory) {
		s.state("ask")["mode"] = "conversational"
		s.state("ask")["agent_off_ramp"] = true
	})},
	{"write-mode-value", lintSetState("ask", "write_mode", "closed")},
	{"write-mode-read-only-plain", lintSetState("done", "write_mode", "read_only")},
	{"write-mode-scope-set", lintEnter("c.c2", m{"set": m{"write_mode_scope": "all"}})},
	{"intercept-drive", lintSetState("home", "intercept_drive", "walk")},
	{"guard-compile", lintArm("c.c2", "back", m{"target": "home", "when": "world.n >"})},
	{"set-compile", lintEnter("c.c2", m{"set": m{"s": "{{ world.n + }}"}})},
	{"with-compile", lintEnter("done", m{"invoke": "host.ok", "with": m{"a": "{{ world.n + }}"}})},
	{"effect-when-compile", lintEnter("c.c2", m{"when": "world.n ==", "set": m{"n": 2}})},
	{"guard-forbidden-root", lintArm("c.c2", "back", m{"target": "home", "when": "$host_error.code == 'X'"})},
	{"decider-no-agent", lintTop("decider", m{"schema": "schemas/verdict.json"})},
	{"decider-agent-undeclared", lintTop("decider", m{"agent": "ghost", "schema": "schemas/verdict.json"})},
	{"decider-threshold", lintTop("decider", m{"agent": "rev", "schema": "schemas/verdict.json", "threshold": 1.5})},
	{"intent-synonym-empty", always(func(_ *gen, s *lintStory) { s.app["intents"].(m)["tick"].(m)["synonyms"] = []any{"tock", ""} })},
	{"slot-synonyms-string", always(func(_ *gen, s *lintStory) {
		s.app["intents"].(m)["put"].(m)["slots"].(m)["v"].(m)["synonyms"] = m{"a": []any{"x"}}
	})},
	{"slot-synonyms-key", always(func(_ *gen, s *lintStory) {
		s.app["intents"].(m)["pick"].(m)["slots"].(m)["c"].(m)["synonyms"] = m{"z": []any{"x"}}
	})},
	{"routing-bar", lintTop("routing", m{"semantic_high_bar": 1.2})},
	{"routing-bars-order", lintTop("routing", m{"semantic_high_bar": 0.5, "semantic_mid_bar": 0.5})},
	{"routing-fallback-state", lintTop("routing", m{"free_form_fallback": m{"state": "nowhere", "intent": "put"}})},
	{"meta-mode-no-trigger", lintTop("meta_modes", m{"help": m{"agent": "rev"}})},
	{"meta-mode-no-agent", lintTop("meta_modes", m{"help": m{"trigger": "help"}})},
	{"meta-mode-agent", lintTop("meta_modes", m{"help": m{"trigger": "help", "agent": "ghost"}})},
	{"meta-mode-intent", lintTop("meta_modes", m{"tick": m{"trigger": "tick", "agent": "rev"}})},
	{"off-path-agent", lintTop("off_path", m{"trigger": "/x", "agent": "ghost"})},
	{"provider-ref", lintEnter("done", m{"invoke": "host.agent.ask", "with": m{"agent": "rev", "prompt": "x", "provider": "nope"}})},
	{"provider-not-agent", lintEnter("done", m{"invoke": "host.ok", "with": m{"provider": "x"}})},
	{"task-no-acceptance", lintEnter("done", m{"invoke": "host.agent.task", "with": m{"agent": "rev", "prompt": "x"}})},
	{"starlark-no-script", lintEnter("done", m{"invoke": "host.starlark.run", "with": m{"inputs": m{}}})},
	{"starlark-missing", lintEnter("done", m{"invoke": "host.starlark.run", "with": m{"script": "scripts/none.star"}})},
	{"proposal-background", lintTop("proposals", m{"fix": m{"execute": m{"background": true}}})},
	// found by this kind (docs/compat/story.md)
	{"choice-no-mode", lintSetState("done", "view", []any{m{"choice": m{"items": []any{m{"label": "a", "intent": "go"}}}}})},
	{"choice-param-no-type", lintSetState("done", "view", []any{m{"choice": m{"mode": "single", "items": []any{m{"label": "a", "intent": "put", "param": m{"slot": "v"}}}}}})},
	{"choice-form-field-label", lintSetState("done", "view", []any{m{"choice": m{"mode": "form", "intent": "put", "template": "{v}", "fields": m{"v": m{"type": "string", "label": "V"}}}}})},
	{"choice-multi-template-value", lintSetState("done", "view", []any{m{"choice": m{"mode": "multi", "intent": "put", "slot": "v", "items": []any{m{"value": "{{ world.s }}"}}}}})},
	{"host-prefix", always(func(_ *gen, s *lintStory) {
		s.app["hosts"] = []any{"host.ok", "host.agent", "host.agent.decide", "host.agent.task"}
	})},
	{"host-template", always(func(_ *gen, s *lintStory) {
		s.app["hosts"] = []any{"host.ok", "host.agent.ask", "host.agent.decide", "host.agent.task"}
		s.addEnter("done", m{"invoke": "{{ world.s }}"})
	})},
	{"meta-mode-story-edit", lintTop("meta_modes", m{"story.edit": m{"group": "story", "trigger": "edit", "agent": "rev"}})},
	{"terminal-yes", lintSetState("done", "terminal", "yes")},
	{"menu-string", lintSetState("home", "menu", "go")},
	{"root-number", always(func(_ *gen, s *lintStory) {
		s.app["states"].(m)["1"] = m{"view": "one", "on": m{"go": []any{m{"target": "home"}}}}
		s.app["root"] = 1
	})},
	{"list-item-intent", lintSetState("done", "view", []any{m{"list": m{"items": []any{m{"label": "a", "intent": "go"}}}}})},
	{"proposal-view-list", lintTop("proposals", m{"fix": m{"views": m{"review": []any{m{"prose": "x"}}}}})},
	{"grammar-subset", lintGrammar(`{"type":"object","$defs":{},"properties":{"a":{"type":"string","pattern":"a+"}}}`)},
	{"grammar-schema-missing", lintGrammar("")},
}

// lintGrammar points decide's call at a local_llm agent with grammar: true
// and schema (none: a file that does not exist): §7.3.
func lintGrammar(schema string) func(g *gen, s *lintStory) bool {
	return always(func(_ *gen, s *lintStory) {
		lintPlugin("agent.llm", m{"plugin": "builtin.local_llm", "model": "m", "grammar": true})(nil, s)
		e := s.state("decide")["on_enter"].([]any)[0].(m)
		e["agent"] = "agent.llm"
		e["with"].(m)["schema"] = "schemas/none.json"
		if schema != "" {
			s.files["schemas/g.json"] = schema + "\n"
			e["with"].(m)["schema"] = "schemas/g.json"
		}
	})
}

// lintNearMisses are each check's neighbour that upstream loads.
var lintNearMisses = []lintChange{
	{"state-description", lintSetState("c.c1", "description", "the first")},
	{"world-extra-key", always(func(_ *gen, s *lintStory) { s.app["world"].(m)["n"].(m)["note"] = "ignored" })},
	{"world-inline-default", always(func(_ *gen, s *lintStory) { s.app["world"].(m)["plan"] = m{"goal": "x", "steps": []any{1, 2}} })},
	{"world-type-free", always(func(_ *gen, s *lintStory) { s.app["world"].(m)["w"] = m{"type": "widget", "default": "z"} })},
	{"view-element-extra-key", lintSetState("c.c1", "view", []any{m{"prose": "C1", "extra": 1}})},
	{"view-extends", always(func(_ *gen, s *lintStory) {
		s.files["views/base.pongo"] = "{% block body %}{% endblock %}\n"
		s.state("done")["view"] = m{"extends": "base", "blocks": m{"body": []any{m{"prose": "bye"}}}}
	})},
	{"view-template-file", always(func(_ *gen, s *lintStory) {
		s.files["views/done.pongo"] = "bye {{ world.n }}\n"
		s.state("done")["view"] = m{"template_file": "done.pongo"}
	})},
	{"view-pongo-broken", lintSetState("done", "view", "bye {% if %}")},
	{"view-when-element", lintSetState("done", "view", []any{m{"prose": "bye", "when": "world.n > 1"}})},
	{"off-ramp-true", lintSetState("ask", "agent_off_ramp", true)},
	{"off-ramp-map", lintSetState("ask", "agent_off_ramp", m{"agent": "rev", "banner": "b"})},
	{"bash-profile-read-only", lintAgent("sh", m{"system_prompt": "x", "tools": []any{"Bash"}, "bash_profile": "read-only"})},
	{"bash-profile-commands", lintAgent("sh", m{"system_prompt": "x", "tools": []any{"Bash"}, "bash_profile": m{"commands": []any{"ls"}}})},
	{"bash-unreferenced", lintAgent("sh", m{"system_prompt": "x", "tools": []any{"Bash"}})},
	{"cache-max-age-days", lintTop("routing", m{"cache_max_age": "7d"})},
	{"agent-prompt-file", always(func(_ *gen, s *lintStory) {
		s.files["prompts/sys.md"] = "You are a helper.\n"
		s.app["agents"].(m)["file"] = m{"system_prompt_path": "prompts/sys.md"}
	})},
	{"agent-effort-xhigh", lintAgent("eff", m{"system_prompt": "x", "effort": "xhigh"})},
	{"agent-cwd-set", lintAgent("wd", m{"system_prompt": "x", "cwd": "$HOME/w"})},
	{"include-nothing", always(func(_ *gen, s *lintStory) {
		l, _ := s.app["include"].([]any)
		s.app["include"] = append(l, "more/*.yaml")
	})},
	{"include-dropped-keys", lintInclOnly(func(_ *gen, s *lintStory) {
		s.room()["agent_plugins"] = m{"agent.x": m{"plugin": "bogus"}}
		s.room()["root"] = "nowhere"
	})},
	{"include-hosts-union", lintInclOnly(func(_ *gen, s *lintStory) { s.room()["hosts"] = []any{"host.extra"} })},
	{"import-alias-underscore", lintKidOnly(func(_ *gen, s *lintStory) {
		s.app["imports"] = m{"k_2": s.kidImport()}
		s.setOn("home", "enter", m{"target": "k_2"})
	})},
	{"import-entry-target", lintKidOnly(func(_ *gen, s *lintStory) { s.setOn("home", "enter", m{"target": "kid.k1"}) })},
	{"import-hosts-inherit", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["hosts"] = "inherit" })},
	{"import-entry", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["entry"] = "k2" })},
	{"import-version", lintKidOnly(func(_ *gen, s *lintStory) { s.kidImport()["version"] = "^1.0" })},
	{"exit-declared", always(func(_ *gen, s *lintStory) {
		s.app["exits"] = m{"out": m{"description": "leave"}}
		s.setOn("done", "back", m{"target": "@exit:out"})
	})},
	{"plugin-env-bare-dollar", lintPlugin("agent.x", m{"plugin": "subprocess", "command": "echo", "env": m{"K": "$GENLINT_NOT_SET and ${UNCLOSED"}})},
	{"plugin-mcp", lintPlugin("agent.x", m{"plugin": "mcp_http", "endpoint": "http://127.0.0.1:1/mcp"})},
	{"plugin-llm-endpoint", lintPlugin("agent.x", m{"plugin": "builtin.local_llm", "endpoint": "http://127.0.0.1:1"})},
	{"plugin-claude-override", lintPlugin("agent.claude", m{"plugin": "builtin.claude_cli"})},
	{"provider-model-only", always(func(_ *gen, s *lintStory) {
		ps, ok := s.app["providers"].(m)
		if !ok {
			ps = m{}
			s.app["providers"] = ps
		}
		ps["p"] = m{"model": "m"}
	})},
	{"effect-agent-alias-unknown", always(func(_ *gen, s *lintStory) { s.state("decide")["on_enter"].([]any)[0].(m)["agent"] = "agent.nope" })},
	{"schema-file-missing", always(func(_ *gen, s *lintStory) {
		s.state("decide")["on_enter"].([]any)[0].(m)["with"].(m)["schema"] = "schemas/missing.json"
	})},
	{"on-error-dangling", always(func(_ *gen, s *lintStory) { s.state("ask")["on_enter"].([]any)[0].(m)["on_error"] = "nowhere" })},
	{"unreachable-state", always(func(_ *gen, s *lintStory) { s.app["states"].(m)["lost"] = m{"view": "lost"} })},
	{"state-type-free", always(func(_ *gen, s *lintStory) { s.app["states"].(m)["odd"] = m{"type": "atomicish", "view": "odd"} })},
	{"menu-undeclared", lintSetState("home", "menu", []any{"go", "fly"})},
	{"effect-set-and-invoke", lintEnter("done", m{"set": m{"n": 1}, "invoke": "host.ok"})},
	{"selection-free", always(func(_ *gen, s *lintStory) {
		s.state("decide")["on_enter"].([]any)[0].(m)["selection"] = m{"profile": "nope", "effort": "galactic", "evidence": "evals/none.yaml"}
	})},
	{"compound-no-initial", always(func(_ *gen, s *lintStory) {
		s.app["states"].(m)["cc"] = m{"type": "compound", "states": m{"x": m{"view": "x"}}}
	})},
	{"bind-template-odd", lintEnter("ask", m{"invoke": "host.ok", "bind": m{"s": "{{ result. }}"}})},
	{"task-no-agent", lintEnter("done", m{"invoke": "host.agent.task", "with": m{"prompt": "x", "acceptance": m{"schema": "schemas/verdict.json"}}})},
	{"undeclared-world-write", lintEnter("c.c2", m{"set": m{"zz": 1}})},
	{"relevant-world-reserved", lintSetState("c.c1", "relevant_world", []any{"last_error", "session_id"})},
	{"default-intent-ok", lintSetState("home", "default_intent", "put")},
	{"contextual-routing-off", lintSetState("home", "contextual_routing", m{"enabled": false})},
	{"kv-quoted-number", lintSetState("done", "view", []any{m{"kv": m{"pairs": m{"n": "5"}}}})},
	{"transcript-top", lintSetState("home", "transcript", "transient")},
	{"theme-top", lintSetState("home", "theme", "dark")},
	{"on-wildcard", lintArm("c.c2", "*", m{"target": "home"})},
	{"on-state-local", always(func(_ *gen, s *lintStory) {
		s.state("c.c2")["intents"] = m{"fly": m{"description": "fly"}}
		s.setOn("c.c2", "fly", m{"target": "home"})
	})},
	{"target-slash", lintArm("c.c1", "back", m{"target": "c/c2"})},
	{"target-template", lintArm("c.c1", "back", m{"target": "{{ 'home' }}"})},
	{"target-self", lintArm("c.c2", "tick", m{"target": "c.c2"})},
	{"no-hosts-any-invoke", always(func(_ *gen, s *lintStory) {
		delete(s.app, "hosts")
		s.addEnter("done", m{"invoke": "host.whatever"})
	})},
	{"with-agent-template", lintEnter("done", m{"invoke": "host.agent.ask", "with": m{"agent": "{{ world.s }}", "prompt": "x"}})},
	{"with-agent-inline-effects", lintEnter("ask", m{"invoke": "host.ok", "background": true,
		"on_complete": []any{m{"effects": []any{m{"invoke": "host.agent.ask", "with": m{"agent": "ghost"}}}}}})},
	{"on-complete-target", lintEnter("ask", m{"invoke": "host.ok", "background": true,
		"on_complete": []any{m{"set": m{"n": 2}}, m{"target": "home"}}})},
	{"emit-intent-template", lintEnter("done", m{"emit_intent": "{{ world.flag ? 'go' : '' }}"})},
	{"emit-intent-ancestor", lintEnter("p.ra.a2", m{"emit_intent": "back"})},
	{"decider-llm", lintSetState("home", "decider", "llm")},
	{"timeout-days", lintSetState("c.c1", "timeout", m{"after": "3d", "target": "home"})},
	{"timeout-template", lintSetState("c.c1", "timeout", m{"after": "{{ world.s }}", "target": "home"})},
	{"initial-template", lintSetState("c", "initial", "{{ 'c1' }}")},
	{"write-mode-open", lintSetState("done", "write_mode", "open")},
	{"write-mode-read-only-converse", always(func(_ *gen, s *lintStory) {
		s.state("ask")["mode"] = "conversational"
		s.state("ask")["write_mode"] = "read_only"
	})},
	{"intercept-drive-rest", lintSetState("home", "intercept_drive", "rest")},
	{"guard-world-host-error", lintArm("c.c2", "back", m{"target": "home", "when": "world.host_error.message == 'x'"})},
	{"guard-rich", lintArm("c.c2", "back", m{"target": "home", "when": "world.n in [1, 2] && (world.s ?? '') != '' || len(world.verdict) > 0"})},
	{"decider-threshold-edge", lintTop("decider", m{"agent": "rev", "schema": "schemas/verdict.json", "threshold": 1})},
	{"decider-no-agents-check", always(func(_ *gen, s *lintStory) {
		s.app["decider"] = m{"agent": "someone", "schema": "schemas/verdict.json"}
		delete(s.app, "agents")
		s.state("ask")["on_enter"].([]any)[0].(m)["with"].(m)["agent"] = "{{ 'rev' }}"
		delete(s.state("decide")["on_enter"].([]any)[0].(m)["with"].(m), "agent")
		delete(s.app, "providers")
	})},
	{"routing-bars-edge", lintTop("routing", m{"semantic_high_bar": 1, "semantic_mid_bar": 0})},
	{"routing-fallback-ok", always(func(_ *gen, s *lintStory) {
		s.app["routing"] = m{"free_form_fallback": m{"state": "home", "intent": "put"}}
	})},
	{"meta-mode-builtin-agent", lintTop("meta_modes", m{"explain": m{"trigger": "explain", "agent": "story-explainer"}})},
	{"meta-mode-group", lintTop("meta_modes", m{"dev.look": m{"trigger": "look", "group": "dev", "default": true, "agent": "rev"}})},
	{"off-path-builtin", lintTop("off_path", m{"trigger": "/x", "agent": "default-agent"})},
	{"provider-ref-ok", always(func(_ *gen, s *lintStory) {
		s.app["providers"] = m{"fast": m{"model": "m"}}
		s.addEnter("done", m{"invoke": "host.agent.ask", "with": m{"agent": "rev", "prompt": "x", "provider": "fast"}})
	})},
	{"starlark-template-script", always(func(_ *gen, s *lintStory) {
		s.allowHost("host.starlark.run")
		s.addEnter("done", m{"invoke": "host.starlark.run", "with": m{"script": "{{ world.s }}"}})
	})},
	{"proposal-execute", lintTop("proposals", m{"fix": m{"execute": m{"invoke": "host.ok", "background": true}}})},
	{"emit-intent-arc", always(func(_ *gen, s *lintStory) {
		s.setOn("done", "tick", m{"target": "."})
		s.addEnter("done", m{"emit_intent": "tick"})
	})},
	{"with-agent-no-invoke", lintEnter("done", m{"with": m{"agent": "rev"}})},
	{"timeout-negative", lintSetState("c.c2", "timeout", m{"after": "-5m", "target": "home"})},
	{"root-quoted-number", always(func(_ *gen, s *lintStory) {
		s.app["states"].(m)["1"] = m{"view": "one", "on": m{"go": []any{m{"target": "c"}}}}
	})},
	{"proposal-views-strings", lintTop("proposals", m{"fix": m{"views": m{"review": "R {{ proposal.a }}", "n": 5}, "draft": m{"prompt": "p"}, "policy": m{"require_confirm": true}}})},
	{"grammar-subset-ok", lintGrammar(`{"type":"object","required":["a"],"properties":{"a":{"type":"string","pattern":"^a+$"},"b":{"type":"array","items":{"type":"integer"}}}}`)},
	{"choice-full-forms", lintSetState("done", "view", []any{m{"choice": m{"mode": "form", "intent": "put", "template": "{v} {r}", "fields": m{
		"v": m{"type": "enum", "values": []any{"a"}, "placeholder": "{{ world.s }}", "when": "world.n >= 0"},
		"r": m{"type": "int", "readonly": true, "expr": "world.n + 1"}}}}})},
	{"host-template-listed", always(func(_ *gen, s *lintStory) {
		s.allowHost("{{ world.s }}")
		if s.app["hosts"] != nil {
			s.addEnter("done", m{"invoke": "{{ world.s }}"})
		}
	})},
	{"proposal-execute-unlisted", lintTop("proposals", m{"fix": m{"execute": m{"invoke": "host.unlisted"}}})},
	{"meta-mode-story-edit-default", lintTop("meta_modes", m{"story.edit": m{"group": "story", "trigger": "edit", "agent": "rev", "default": true}})},
	// an inline effects: list is checked only as it decodes
	{"inline-checks", lintEnter("ask", m{"set": m{"n": 1}, "effects": []any{
		m{"invoke": "iface.vcs.diff"}, m{"invoke": "host.nope", "once": true}, m{"target": "nowhere"},
		m{"emit_intent": "nope"}, m{"invoke": "host.agent.task", "with": m{"agent": "ghost"}}}})},
	// bind values upstream decodes as text, templates it compiles late
	{"bind-null-number", lintEnter("ask", m{"invoke": "host.ok", "bind": m{"s": nil, "flag": 5}})},
	{"bind-template-whitelist", lintEnter("ask", m{"invoke": "host.ok", "bind": m{"s": "{{ nofn(result) }}"}})},
	// texts upstream compiles only when it renders them
	{"say-pongo-broken", lintArm("ask", "tick", m{"target": ".", "effects": []any{m{"say": "hi {% if %}"}}})},
	{"target-pongo-broken", lintArm("ask", "tick", m{"target": "{{ world. }}"})},
	{"timeout-after-broken", lintSetState("c.c1", "timeout", m{"after": "{{ world. }}", "target": "home"})},
	{"footer-broken", lintSetState("home", "footer", "{% if %}")},
	{"prompt-file-missing", lintEnter("ask", m{"invoke": "host.agent.ask", "with": m{"agent": "rev", "prompt_path": "prompts/none.md"}})},
}
