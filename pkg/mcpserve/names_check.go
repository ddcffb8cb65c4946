package mcpserve

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// ruleToolName is the rule of CheckToolNames' diagnostics. LintOnly: only
// kitsoki mcp serve refuses such a story; a run does not care.
var ruleToolName = &diag.Rule{ID: "mcp-tool-name", Severity: diag.Warning, LintOnly: true,
	Summary: "two agent aliases become the same MCP tool name (or one names no tool), so kitsoki mcp serve refuses the story",
	Example: "agent_plugins:\n  agent.a-b: {plugin: subprocess, command: x}\n  agent.a_b: {plugin: subprocess, command: y}"}

// Rules lists (a copy of) the rule of the package's diagnostics.
func Rules() []diag.Rule { return diag.Values([]*diag.Rule{ruleToolName}) }

// CheckToolNames reports, for kitsoki validate, the (alias, verb) pairs of
// st's call sites that `kitsoki mcp serve` could not offer (colliding tool
// names, or nothing to name a tool after). They are warnings: only mcp serve
// refuses such a story. Every alias counts, enabled or not (a profile may
// enable it later).
func CheckToolNames(st *story.Story) []diag.Diagnostic {
	if st == nil {
		return nil
	}
	type pair struct{ alias, verb string }
	var pairs []pair
	for _, s := range callSites(st) {
		pairs = append(pairs, pair{s.alias, s.verb})
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmp.Or(strings.Compare(a.alias, b.alias), strings.Compare(a.verb, b.verb)) })
	pairs = slices.Compact(pairs)
	at := func(alias string) diag.Diagnostic {
		d := diag.Diagnostic{File: st.File, Severity: diag.Warning, Rule: ruleToolName.ID}
		if ap := st.AgentPlugins[alias]; ap != nil && ap.Pos.Line > 0 {
			d.File, d.Line, d.Col = ap.Pos.File, ap.Pos.Line, ap.Pos.Col
		}
		return d
	}
	var out []diag.Diagnostic
	owner := map[string]pair{}
	for _, p := range pairs {
		name, err := toolName(p.alias, p.verb)
		if err != nil {
			d := at(p.alias)
			d.Message = fmt.Sprintf("kitsoki mcp serve cannot offer %s: %v", p.alias, err)
			out = append(out, d)
			continue
		}
		if prev, ok := owner[name]; ok {
			d := at(p.alias)
			d.Message = fmt.Sprintf("agent aliases %s and %s both become the MCP tool %s (host.agent.%s), so kitsoki mcp serve refuses this story; rename one of them", prev.alias, p.alias, name, p.verb)
			out = append(out, d)
			continue
		}
		owner[name] = p
	}
	return out
}
