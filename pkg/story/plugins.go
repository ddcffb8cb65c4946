package story

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

var supportedPlugins = []string{PluginClaudeCLI, PluginInProcess, PluginSubprocess, PluginMCPHTTP, PluginLocalLLM}

var ValidEfforts = []string{"low", "medium", "high", "xhigh", "max"}

// MinSecretBytes is the length under which a secret is never masked.
const MinSecretBytes = 4

// resolvePlugins validates agent_plugins:, substitutes ${VAR}, injects agent.claude.
func (l *loader) resolvePlugins(st *Story, fd *fileDef) {
	p := newFileParser(l.rep, fd.file, fd.dir, 0)
	n := yamlnode.Deref(fd.pluginsNode)
	if n != nil && n.Kind == yaml.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := yamlnode.Deref(n.Content[i]), n.Content[i+1]
			if k == nil || k.Kind != yaml.ScalarNode {
				continue
			}
			alias := k.Value
			kp := p.Pos(k)
			if seen[alias] {
				p.Errf(kp, RuleDuplicateKey, "agent_plugins: mapping key %q already defined", alias)
				continue
			}
			seen[alias] = true
			if st.pluginAliases == nil {
				st.pluginAliases = map[string]bool{}
			}
			st.pluginAliases[alias] = true
			if yamlnode.IsNull(v) {
				p.Errf(kp, RuleAgentPlugin, "agent_plugins.%s: empty declaration", alias)
				continue
			}
			if !strings.HasPrefix(alias, "agent.") {
				p.Errf(kp, RuleAgentPlugin, "agent_plugins: key %q must start with 'agent.' prefix", alias)
				continue
			}
			ap := l.parsePlugin(p, alias, k, v)
			if ap != nil {
				st.AgentPlugins[alias] = ap
			}
		}
	}
	if _, ok := st.AgentPlugins[DefaultAgentAlias]; !ok {
		st.AgentPlugins[DefaultAgentAlias] = &AgentPlugin{Alias: DefaultAgentAlias, Plugin: PluginClaudeCLI, Injected: true,
			Pos: Pos{File: fd.file}}
	}
}

// isPin reports a sha256: pin: 64 hex digits.
func isPin(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func (l *loader) parsePlugin(p *fileParser, alias string, k, v *yaml.Node) *AgentPlugin {
	ap := &AgentPlugin{Alias: alias, Pos: p.Pos(k)}
	where := "agent_plugins." + alias
	var envNode, headersNode, pinNode *yaml.Node
	hasPlugin := false
	p.Fields(v, where, yamlnode.Fields{
		{Key: "plugin", Str: &ap.Plugin, Read: func(_, _ *yaml.Node) { hasPlugin = true }},
		{Key: "command", Str: &ap.Command},
		{Key: "args", List: &ap.Args},
		{Key: "endpoint", Str: &ap.Endpoint},
		{Key: "tool", Str: &ap.Tool},
		{Key: "env", Read: func(_, v *yaml.Node) { envNode = v }},
		{Key: "headers", Read: func(_, v *yaml.Node) { headersNode = v }},
		{Key: "model", Str: &ap.Model},
		{Key: "grammar", Bool: &ap.Grammar},
		{Key: "port", Int: &ap.Port},
		{Key: "server_bin", Str: &ap.ServerBin},
		{Key: "json_schema", Bool: &ap.JSONSchema},
		{Key: "api_key_env", Str: &ap.APIKeyEnv},
		{Key: "claude_bin", Str: &ap.ClaudeBin},
		{Key: "sha256", Str: &ap.SHA256, Read: func(_, v *yaml.Node) { pinNode = v }},
	})
	kp := ap.Pos
	switch {
	case !hasPlugin || strings.TrimSpace(ap.Plugin) == "":
		p.Errf(kp, RuleAgentPlugin, "agent_plugins.%s: plugin: is required", alias)
		return nil
	case !slices.Contains(supportedPlugins, ap.Plugin):
		p.Errf(kp, RuleAgentPlugin, "agent_plugins.%s: unknown plugin %q (supported: %s)", alias, ap.Plugin, strings.Join(supportedPlugins, ", "))
		return nil
	case ap.Plugin == PluginSubprocess && strings.TrimSpace(ap.Command) == "":
		p.Errf(kp, RuleAgentPlugin, "agent_plugins.%s: subprocess plugin requires command:", alias)
		return nil
	case ap.Plugin == PluginMCPHTTP && strings.TrimSpace(ap.Endpoint) == "":
		p.Errf(kp, RuleAgentPlugin, "agent_plugins.%s: mcp_http plugin requires endpoint:", alias)
		return nil
	case ap.Plugin == PluginLocalLLM && strings.TrimSpace(ap.Model) == "" && strings.TrimSpace(ap.Endpoint) == "":
		p.Errf(kp, RuleAgentPlugin, "agent_plugins.%s: builtin.local_llm plugin requires model: or endpoint:", alias)
		return nil
	case pinNode != nil && ap.Plugin != PluginSubprocess:
		p.Errf(p.Pos(pinNode), RuleAgentPlugin, "agent_plugins.%s: sha256: pins a subprocess plugin's command:, and plugin: %s runs none (remove sha256:)", alias, ap.Plugin)
		return nil
	case pinNode != nil && !isPin(ap.SHA256):
		p.Errf(p.Pos(pinNode), RuleAgentPlugin, "agent_plugins.%s: sha256: %q is not a sha256 digest: want 64 hex digits (sha256sum <command> prints it)", alias, ap.SHA256)
		return nil
	}
	var envSecrets, headerSecrets []string
	ap.Env, envSecrets = l.interpMap(p, envNode, "agent_plugins."+alias, "env", &ap.EmptyRefs)
	ap.Headers, headerSecrets = l.interpMap(p, headersNode, "agent_plugins."+alias, "headers", &ap.EmptyRefs)
	ap.Secrets = append(envSecrets, headerSecrets...)
	// api_key_env's value is sent as a bearer token: a secret like a
	// ${VAR} in headers:, masked wherever a server echoes it.
	if name := strings.TrimSpace(ap.APIKeyEnv); name != "" {
		if key, _ := l.opts.Lookup(name); key != "" {
			ap.Secrets = append(ap.Secrets, key)
		}
	}
	return ap
}

// interpMap decodes a string map and substitutes ${VAR} in each value (an
// unset one is an error, a warning with AllowUnsetEnv); messages never name
// a value. It also returns the secrets the substitution produced, and adds
// to empties where an empty reference ${} ended a value.
func (l *loader) interpMap(p *fileParser, n *yaml.Node, prefix, field string, empties *[]EmptyRef) (map[string]string, []string) {
	out := map[string]string{}
	var secrets []string
	if n == nil {
		return out, nil
	}
	sev := l.opts.UnsetEnvSeverity()
	p.Mapping(n, prefix+"."+field, nil, func(key string, _, v *yaml.Node) {
		raw := p.Str(v, prefix+"."+field+"."+key)
		val, unset, used := interpolate(raw, l.opts.Lookup)
		if at, ok := l.emptyRefPos(p.Pos(v), raw); ok {
			*empties = append(*empties, EmptyRef{Field: field + "." + key, Pos: at})
		}
		if len(used) > 0 {
			secrets = append(secrets, val)
			secrets = append(secrets, used...)
		}
		seen := map[string]int{}
		for _, name := range unset {
			at := l.refPos(p.Pos(v), raw, "${"+name+"}", seen[name])
			seen[name]++
			p.Add(at, sev, RuleAgentPlugin, "%s: env var %s referenced in %s.%s not set", prefix, name, field, key)
		}
		out[key] = val
	})
	return out, secrets
}

// refPos is the file position of the nth (0-based) occurrence of ref in
// the scalar raw whose node is at at, through the scalar's style (a block
// scalar's reference is on its own line, not at the | or > indicator); at
// when it cannot be mapped.
func (l *loader) refPos(at Pos, raw, ref string, nth int) Pos {
	off := -1
	for i := 0; i <= nth; i++ {
		j := strings.Index(raw[off+1:], ref)
		if j < 0 {
			return at
		}
		off += 1 + j
	}
	before := raw[:off]
	nl := strings.LastIndexByte(before, '\n')
	line, col := 1+strings.Count(before, "\n"), 1+utf8.RuneCountInString(before[nl+1:])
	data, ok := l.sources[at.File]
	if !ok {
		return at
	}
	return yamlnode.ValueAt(strings.Split(string(data), "\n"), at, raw, line, col)
}

// EmptyRef is where an empty reference ${} ends an env:/headers: value
// (Field is "env.KEY" or "headers.KEY").
type EmptyRef struct {
	Field string
	Pos   Pos
}

// emptyRefPos is the file position of the empty reference ${} at which
// interpolate stops scanning raw (whose node is at at), if it does.
func (l *loader) emptyRefPos(at Pos, raw string) (Pos, bool) {
	off := emptyRefOffset(raw)
	if off < 0 {
		return Pos{}, false
	}
	return l.refPos(at, raw, "${}", strings.Count(raw[:off], "${}")), true
}

// emptyRefOffset is the byte offset of the first reference of s, read as
// interpolate reads them, whose name is empty; -1 when there is none.
func emptyRefOffset(s string) int {
	base := 0
	for {
		i := strings.Index(s[base:], "${")
		if i < 0 {
			return -1
		}
		j := strings.IndexByte(s[base+i+2:], '}')
		if j < 0 {
			return -1
		}
		if j == 0 {
			return base + i
		}
		base += i + 2 + j + 1
	}
}

// UnsetEnvSeverity is an error, or a warning with AllowUnsetEnv.
func (o Options) UnsetEnvSeverity() diag.Severity {
	if o.AllowUnsetEnv {
		return diag.Warning
	}
	return diag.Error
}

// interpolate substitutes ${NAME} in s in one pass (bare $NAME and an
// unclosed ${ stay literal), returning the unset names and the values used.
// An empty reference ${} ends the scan as upstream's loader does: the whole
// value is "" and no later reference is looked up (an unset one before it
// is still reported).
func interpolate(s string, lookup func(string) (string, bool)) (out string, unset, used []string) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		name := s[i+2 : i+2+j]
		if name == "" {
			return "", unset, used
		}
		if v, ok := lookup(name); ok {
			b.WriteString(v)
			used = append(used, v)
		} else {
			unset = append(unset, name)
		}
		s = s[i+2+j+1:]
	}
	return b.String(), unset, used
}

// resolveProviders validates providers: and substitutes ${VAR} in their env.
func (l *loader) resolveProviders(st *Story) {
	sev := l.opts.UnsetEnvSeverity()
	for _, n := range slices.Sorted(maps.Keys(st.Providers)) {
		pr := st.Providers[n]
		if pr.declaredEmpty {
			l.rep.Errf(pr.Pos, RuleProvider, "providers.%s: empty declaration", n)
			continue
		}
		if pr.Model == "" && pr.Effort == "" && len(pr.Env) == 0 {
			l.rep.Errf(pr.Pos, RuleProvider, "providers.%s: a provider must set model:, effort:, and/or env: (an empty provider has no effect)", n)
			continue
		}
		if pr.Effort != "" && !slices.Contains(ValidEfforts, pr.Effort) {
			l.rep.Errf(pr.Pos, RuleProvider, "providers.%s: effort %q is invalid (valid: low, medium, high, xhigh, max)", n, pr.Effort)
		}
		keys := slices.Sorted(maps.Keys(pr.Env))
		for _, k := range keys {
			val, unset, _ := interpolate(pr.Env[k], l.opts.Lookup)
			if vp, ok := pr.envPos[k]; ok {
				if at, ok := l.emptyRefPos(vp, pr.Env[k]); ok {
					pr.EmptyRefs = append(pr.EmptyRefs, EmptyRef{Field: "env." + k, Pos: at})
				}
			}
			seen := map[string]int{}
			for _, name := range unset {
				at := pr.Pos
				if vp, ok := pr.envPos[k]; ok {
					at = l.refPos(vp, pr.Env[k], "${"+name+"}", seen[name])
				}
				seen[name]++
				l.rep.Add(at, sev, RuleProvider, "providers.%s: env var %s referenced in env.%s not set", n, name, k)
			}
			pr.Env[k] = val
		}
	}
}
