package flowtest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"kitsoki/pkg/agent"
	"kitsoki/pkg/compose"
	"kitsoki/pkg/schema"
	"kitsoki/pkg/story"
)

// routeSchema is the answer every live routing call is held to: an intent
// name (empty when nothing fits) and its slots.
const routeSchema = `{
  "type": "object",
  "properties": {
    "intent": {"type": "string", "description": "the name of the intent the text asks for; empty when none fits"},
    "slots": {"type": "object", "description": "the intent's slot values"}
  },
  "required": ["intent"]
}`

// AgentHarness routes free text through one agent alias of the story (any
// transport: a subprocess plugin, mcp_http, claude_cli, builtin.local_llm),
// so an author can measure how well a backend routes before trusting it.
type AgentHarness struct {
	reg    *agent.Registry
	alias  string
	st     *story.Story
	schema *schema.Schema
}

// NewAgentHarness routes through alias of reg, describing st's intents.
func NewAgentHarness(reg *agent.Registry, alias string, st *story.Story) (*AgentHarness, error) {
	if !slices.Contains(reg.Aliases(), alias) {
		return nil, fmt.Errorf("--agent %s: the story declares no such agent plugin (it has: %s)", alias, strings.Join(reg.Aliases(), ", "))
	}
	sch, err := schema.CompileBytes("kitsoki-route.json", []byte(routeSchema))
	if err != nil {
		return nil, err
	}
	return &AgentHarness{reg: reg, alias: alias, st: st, schema: sch}, nil
}

// LiveHarness builds `test intents --harness live`: the story's plugin
// assembly under the profile, routing through alias. closeH stops what it
// started; it is safe to call on error too.
func LiveHarness(ld *compose.Loaded, profile, alias string, o compose.BuildOptions) (h *AgentHarness, closeH func(), err error) {
	closeH = func() {}
	plan, err := compose.Resolve(ld, profile)
	if err != nil {
		return nil, closeH, err
	}
	rt, err := plan.Build(o)
	if err != nil {
		return nil, closeH, err
	}
	closeRT := func() { _, _ = rt.Close() }
	if h, err = NewAgentHarness(rt.Agents, alias, ld.Story); err != nil {
		closeRT()
		return nil, closeH, err
	}
	return h, closeRT, nil
}

// Route asks the agent for the intent call the input means.
func (h *AgentHarness) Route(ctx context.Context, req RouteRequest) (*RouteAnswer, error) {
	intents := map[string]any{}
	for _, name := range req.Allowed {
		intents[name] = describeIntent(h.st.Intents[name])
	}
	res, err := h.reg.Dispatch(ctx, agent.Call{Alias: h.alias, Verb: "decide", SessionID: "kitsoki-test-intents",
		Turn: int64(req.Run + 1), StatePath: req.State, Prompt: routePrompt(req, intents), Schema: h.schema,
		With:  map[string]any{"state": req.State, "input": req.Input, "allowed_intents": req.Allowed, "intents": intents},
		World: req.World})
	if err != nil {
		return nil, err
	}
	ans := &RouteAnswer{}
	ans.CostUSD, _ = res.Meta["cost_usd"].(float64)
	ans.Usage, _ = res.Meta["usage"].(map[string]any)
	v, _ := res.Value.(map[string]any)
	ans.Intent, _ = v["intent"].(string)
	ans.Slots, _ = v["slots"].(map[string]any)
	if ans.Intent == "" {
		return ans, fmt.Errorf("agent %s routed %q to no intent (a clarification)", h.alias, req.Input)
	}
	return ans, nil
}

// describeIntent is what the agent is told about one intent.
func describeIntent(in *story.Intent) map[string]any {
	d := map[string]any{}
	if in == nil {
		return d
	}
	if in.Description != "" {
		d["description"] = in.Description
	}
	if len(in.Examples) > 0 {
		d["examples"] = in.Examples
	}
	slots := map[string]any{}
	for _, name := range in.SlotOrder {
		s := in.Slots[name]
		sd := map[string]any{"type": s.Type, "required": s.Required}
		if len(s.Values) > 0 {
			sd["values"] = s.Values
		}
		if s.Description != "" {
			sd["description"] = s.Description
		}
		slots[name] = sd
	}
	if len(slots) > 0 {
		d["slots"] = slots
	}
	return d
}

// routePrompt is the routing instruction sent with every call.
func routePrompt(req RouteRequest, intents map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You route a user's free text to one intent of a state machine resting in state %q.\n", req.State)
	b.WriteString("The intents this state handles:\n")
	for _, name := range req.Allowed {
		d, _ := intents[name].(map[string]any)
		fmt.Fprintf(&b, "- %s", name)
		if desc, ok := d["description"].(string); ok {
			fmt.Fprintf(&b, ": %s", desc)
		}
		if slots, ok := d["slots"].(map[string]any); ok {
			var parts []string
			for _, sn := range slices.Sorted(maps.Keys(slots)) {
				sd := slots[sn].(map[string]any)
				p := fmt.Sprintf("%s (%v", sn, sd["type"])
				if vs, ok := sd["values"]; ok {
					p += fmt.Sprintf(", one of %v", vs)
				}
				if sd["required"] == true {
					p += ", required"
				}
				parts = append(parts, p+")")
			}
			fmt.Fprintf(&b, " [slots: %s]", strings.Join(parts, "; "))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "User text: %q\n", req.Input)
	b.WriteString(`Answer with JSON {"intent": "<name>", "slots": {...}}; use "intent": "" when no intent fits or the text is too vague.`)
	return b.String()
}
