package lint

import (
	"slices"
	"strings"

	"kitsoki/internal/lazyre"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

var ruleAgentArgs = &Rule{ID: "agent-args", Severity: diag.Warning, LintOnly: true,
	Summary: "host.agent.<verb> without an argument its verb needs, or decide with both prompt: and prompt_path: (the call fails before any agent is asked); an ask prompt: or converse question: holding a {% %} tag, which reaches the agent unrendered (pongo2 renders prompt files only); a task's prompt:, prompt_path: or context.prompt_path, which the call never reads (only context.prompt is); an extract (on the default agent) with a prompt:, or with no with.agent persona, which the existing engine's extract fails before any agent starts (as a flow fixture does); an inline prompt:, question: or context.prompt whose {{ args.x }} renders empty, since a with: value renders before the call, where args is not set (a prompt_path file sees args); a top-level decider prompt (inline or its file) that prints {{ args.x }}, which the existing engine renders empty or fails to read; on the default claude path (no agent: or agent.claude), a bind: of a result key the verb never returns there (ask: stdout, exit_code, ok, and submitted only with schema:; converse: answer, session_id; decide: submitted, rationale, claude_session_id, exit_code, ok), which binds nothing",
	Example: "- {invoke: host.agent.converse, with: {prompt: hello}}"}

// checkAgentArgs warns where an agent invoke's literal with: block lacks an
// argument its verb requires (pkg/engine agentArgsError).
func checkAgentArgs(c *checker) {
	c.eachEffect(func(e *story.Effect, site effSite) {
		verb := agentVerb(e.Invoke)
		missing := func(m map[string]any, k string) bool {
			v, ok := m[k]
			if !ok || v == nil {
				return true
			}
			s, isStr := v.(string)
			return isStr && !story.IsTemplated(s) && strings.TrimSpace(s) == ""
		}
		var why, key string
		switch verb {
		case "decide":
			if _, has := e.With["schema"]; has && missing(e.With, "schema") {
				why, key = "host.agent.decide: schema: argument is required", "schema"
			} else if has && missing(e.With, "prompt") && missing(e.With, "prompt_path") {
				why, key = "host.agent.decide: prompt: or prompt_path: argument is required", "prompt"
			} else if !missing(e.With, "prompt") && !missing(e.With, "prompt_path") {
				why, key = "host.agent.decide: prompt: and prompt_path: are mutually exclusive — set only one", "prompt_path"
			}
		case "ask":
			if missing(e.With, "prompt") && missing(e.With, "prompt_path") {
				why, key = "host.agent.ask: prompt_path (or prompt) argument is required", "prompt"
			}
		case "converse":
			if missing(e.With, "question") {
				why, key = "host.agent.converse: question argument is required", "question"
			}
		case "extract":
			if _, ok := e.With["schema"]; !ok {
				why, key = "host.agent.extract: schema argument is required", "schema"
			}
		case "task":
			if missing(e.With, "agent") {
				why, key = "host.agent.task: agent: argument is required — declare a named agent in the agents: block", "agent"
			}
		}
		if why == "" {
			inlineArgsRead(c, e, site)
			unreadPrompt(c, e, site)
			defaultPathBinds(c, e, verb, site)
			return
		}
		pos := e.WithPos(key)
		if _, ok := e.With[key]; !ok {
			pos = e.PosOf("invoke")
		}
		c.rep.WarnAt(pos, site.Place(), ruleAgentArgs, "%s: %s needs with.%s; the call fails at run time before any agent is asked (%s)", site.String(), e.Invoke, key, why)
	})
	deciderArgsRead(c)
}

// deciderArgsRead warns where the top-level decider's prompt (inline, or
// the file it names) prints {{ args.x }}. Probed with the existing
// engine (session continue, one-shot, a stub claude; pkg/lint/testdata/
// decider-prompt): its decider hands prompt: to host.agent.decide as
// prompt_path, with the gate's state and candidates under with:, not
// args, so a file's {{ args.state }} renders empty and an inline text is
// read as a file name that does not exist (the decider bails to the
// human); this engine renders the inline text with args instead.
func deciderArgsRead(c *checker) {
	d := c.st.Decider
	if d == nil || d.Prompt == "" || c.st.Imported() {
		return
	}
	text, inline := d.Prompt, true
	if !story.IsTemplated(d.Prompt) {
		f, ok := c.existingFile(d.Prompt)
		if !ok {
			return
		}
		b, err := c.readStory(f)
		if err != nil {
			return
		}
		text, inline = string(b), false
	}
	if !argsOutput.MatchString(text) {
		return
	}
	why := "the existing engine reads decider.prompt as a prompt file name, so this inline text fails to read there (no such file) and its decider bails to the human at every gate, while this engine renders it with args"
	if !inline {
		why = "the existing engine renders the decider's prompt file with no args (the gate's state and candidates go under with:), while this engine sends the file name itself as the prompt"
	}
	c.rep.Warnf(keyValuePos(c, d.Pos, "prompt"), ruleAgentArgs, "decider prompt prints {{ args.… }}, which the two engines render differently: %s; no decider prompt reads the gate alike on both engines yet (docs/compat/engine.md \"decider prompt\"), so leave {{ args.… }} out", why)
}

// argsOutput is a {{ }} output that reads args: it renders when the
// with: block does, before the call, where args is empty ({% %} blocks
// are left for the prompt renderer, which sees args).
var argsOutput = &lazyre.Regexp{Expr: `\{\{-?\s*args\b`}

// inlineArgsRead warns where an agent call's inline prompt:, question: or
// context.prompt (host.agent.task) prints {{ args.x }}: both engines render
// every with: string at walk time (conformance values-agent-with, where
// task's "T {{ world.k }} {{ args.x }}" is dispatched as "T KK "), so the
// agent reads it empty.
func inlineArgsRead(c *checker, e *story.Effect, site effSite) {
	if agentVerb(e.Invoke) == "" {
		return
	}
	ctx, _ := e.With["context"].(map[string]any)
	for _, key := range []string{"prompt", "question", "context.prompt"} {
		s, ok := e.With[key].(string)
		if key == "context.prompt" {
			s, ok = ctx["prompt"].(string)
		}
		if !ok || !argsOutput.MatchString(s) {
			continue
		}
		c.rep.WarnAt(e.WithPos(key), site.Place(), ruleAgentArgs, "%s: %s with.%s prints {{ args.… }}, which renders empty: a with: value renders before the call, where args is not set, so the agent reads %q with it blank; write the value itself ({{ world.x }}) or move the text to a prompt_path file, which renders with args", site.String(), e.Invoke, key, s)
	}
}

// unreadPrompt warns where an agent call's prompt text will not reach its
// agent as the author probably meant (conformance agent-prompt-sources,
// probed on upstream's real handlers, which this engine follows): ask's
// inline prompt: and converse's question: are sent as written, so a
// {% %} tag reaches the agent unrendered; host.agent.task reads
// context.prompt alone, so a top-level prompt: or prompt_path: or a
// context.prompt_path is never read and the agent gets an empty prompt.
func unreadPrompt(c *checker, e *story.Effect, site effSite) {
	switch agentVerb(e.Invoke) {
	case "ask", "converse":
		key := "prompt"
		if agentVerb(e.Invoke) == "converse" {
			key = "question"
		}
		s, _ := e.With[key].(string)
		if pp, _ := e.With["prompt_path"].(string); key == "prompt" && strings.TrimSpace(pp) != "" {
			return // prompt_path wins; prompt: is not sent
		}
		if !strings.Contains(s, "{%") {
			return
		}
		c.rep.WarnAt(e.WithPos(key), site.Place(), ruleAgentArgs, "%s: %s with.%s holds a {%% %%} tag, which reaches the agent as written: pongo2 renders prompt files only, and an inline %s is sent unrendered; move the text to a prompt_path file (it renders with args) or write it without the tag", site.String(), e.Invoke, key, key)
	case "extract":
		unresolvedExtract(c, e, site)
	case "task":
		ctx, _ := e.With["context"].(map[string]any)
		for _, key := range []string{"prompt", "prompt_path", "context.prompt_path"} {
			v, ok := e.With[key]
			if key == "context.prompt_path" {
				v, ok = ctx["prompt_path"]
			}
			if !ok {
				continue
			}
			c.rep.WarnAt(e.WithPos(key), site.Place(), ruleAgentArgs, "%s: host.agent.task never reads with.%s (%v): its prompt is context.prompt alone (a file name or inline text), and without one the agent is sent an empty prompt; write the prompt (or its file name) under context.prompt", site.String(), key, v)
		}
	}
}

// unresolvedExtract warns where host.agent.extract fails before any agent
// starts (conformance extract-no-resolver, upstream's real handler, which
// flow fixtures follow): a with.prompt leaves its tiers nothing to match,
// and with neither a prompt nor a with.agent persona no tier is declared.
// A call naming an agent: alias is left alone: kitsoki run sends it to
// that plugin.
func unresolvedExtract(c *checker, e *story.Effect, site effSite) {
	if e.Agent() != "" {
		return // kitsoki run sends it to the alias's plugin (docs/compat/agent-contract.md)
	}
	if p, _ := e.With["prompt"].(string); p != "" {
		c.rep.WarnAt(e.WithPos("prompt"), site.Place(), ruleAgentArgs, "%s: host.agent.extract with.prompt (%q) makes upstream's extract match no resolver: the call fails \"no resolver matched\" before any agent starts (as in a flow fixture here); extract reads with.input, so leave prompt: out and name a persona under with.agent", site.String(), p)
		return
	}
	if _, ok := e.With["agent"]; !ok {
		c.rep.WarnAt(e.WithPos("input"), site.Place(), ruleAgentArgs, "%s: host.agent.extract names no with.agent persona: upstream's extract then declares no resolver and fails \"no resolvers declared and no match\" before any agent starts (as in a flow fixture here); name a persona under with.agent", site.String())
	}
}

// defaultPathKeys are the result keys of an agent verb on the default
// claude path (pkg/engine defaultPathResult; conformances
// ask-default-result, decide-default-validator): a bind of any other key
// binds nothing there, although an agent_plugins plugin's result has
// submission, submitted, exit_code, ok, meta and stdout.
var defaultPathKeys = map[string][]string{
	"ask":      {"stdout", "exit_code", "ok", "submitted"},
	"converse": {"answer", "session_id"},
	"decide":   {"submitted", "rationale", "claude_session_id", "exit_code", "ok"},
}

// defaultPathBinds warns where an agent invoke on the default claude path
// binds a result key its verb never returns there (ask's submitted
// without a schema: it is set only by the submit tool a schema attaches).
func defaultPathBinds(c *checker, e *story.Effect, verb string, site effSite) {
	keys := defaultPathKeys[verb]
	if keys == nil || (e.Agent() != "" && e.Agent() != story.DefaultAgentAlias) {
		return
	}
	if ap := c.st.AgentPlugins[story.DefaultAgentAlias]; ap != nil && !ap.Injected {
		return // a redeclared agent.claude is a plugin: its result has every key
	}
	_, hasSchema := e.With["schema"]
	for _, kv := range e.Bind() {
		path, ok := kv.Value.(string)
		if !ok || story.IsTemplated(path) {
			continue
		}
		head, _, _ := strings.Cut(path, ".")
		head, _, _ = strings.Cut(head, "[")
		switch {
		case verb == "ask" && head == "submitted" && !hasSchema:
			c.rep.WarnAt(kv.Pos, site.Place(), ruleAgentArgs, "%s: bind %q reads submitted, which an ask without schema: never returns on the default claude path (its result is stdout, exit_code, ok); bind stdout, or give the call a schema: so the agent submits through the submit tool", site.String(), kv.Key)
		case !slices.Contains(keys, head):
			c.rep.WarnAt(kv.Pos, site.Place(), ruleAgentArgs, "%s: bind %q reads %s, which %s never returns on the default claude path (its result is %s), so it binds nothing", site.String(), kv.Key, head, e.Invoke, strings.Join(keys, ", "))
		}
	}
}
