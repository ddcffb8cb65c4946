package plugin

import (
	"cmp"
	"fmt"
	"iter"
	"sort"
	"strings"

	"kitsoki/pkg/host"
	"kitsoki/pkg/story"
)

// HostUse is one story call of a host handler.
type HostUse struct {
	Handler string `json:"handler"` // the invoked name after host_interfaces / host_bindings
	Invoke  string `json:"invoke,omitempty"`
	Site    string `json:"site"` // e.g. `state "a" on_enter[0]`, or `import "x": state "b" ...`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// StoryHostCalls lists every host call of st (none when nil) and of its imported
// children (transition effects, on_enter/on_exit, on_complete, inline
// effects, proposal execute on_complete), with iface.<name>.<op> resolved
// through the importer's host_bindings or the interface's default.
func StoryHostCalls(st *story.Story) []HostUse {
	var out []HostUse
	collectHostCalls(st, "", nil, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Handler < out[j].Handler })
	return out
}

func collectHostCalls(st *story.Story, prefix string, bindings map[string]string, out *[]HostUse) {
	if st == nil {
		return
	}
	var w story.EffectWalk
	for _, walk := range []iter.Seq[*story.EffectPlace]{w.States(st.AllStates()...), w.Proposals(st.Proposals)} {
		for p := range walk {
			e := p.Effect
			if e.Invoke == "" {
				continue
			}
			h := e.Invoke
			if strings.HasPrefix(h, "iface.") {
				if name, op, ok := story.IfaceCall(h); ok && bindings[name] != "" {
					h = bindings[name] + "." + op
				} else if r, ok := st.ResolveInvoke(h); ok {
					h = r
				}
			}
			u := HostUse{Handler: h, Site: prefix + p.String(), File: e.Pos.File, Line: e.Pos.Line}
			if h != e.Invoke {
				u.Invoke = e.Invoke
			}
			*out = append(*out, u)
		}
	}
	for _, alias := range st.ImportOrder {
		im := st.Imports[alias]
		if im == nil || im.Child == nil {
			continue
		}
		collectHostCalls(im.Child, prefix+fmt.Sprintf("import %q: ", alias), im.HostBindings, out)
	}
}

// HostEntry is one host handler in the listing: registered (built in or
// provided) or called by the story.
type HostEntry struct {
	Name    string    `json:"name"`
	Source  string    `json:"source"` // builtin, provider:<id>, agent (the engine's agent layer), missing, ...
	Summary string    `json:"summary,omitempty"`
	Uses    []HostUse `json:"uses"`
}

// ListHosts lists every handler of reg and every story call: each
// registered handler with the calls it serves (exact name or dotted
// prefix), agent verbs with source "agent", and calls no handler serves
// with source "missing".
func ListHosts(reg *host.Registry, uses []HostUse) []HostEntry {
	byName := map[string]*HostEntry{}
	for _, n := range reg.Names() {
		info, _ := reg.Info(n)
		byName[n] = &HostEntry{Name: n, Source: cmp.Or(info.Source, "registered"), Summary: info.Summary, Uses: []HostUse{}}
	}
	for _, u := range uses {
		var e *HostEntry
		switch _, served, _, ok := reg.Lookup(u.Handler); {
		case host.IsAgentVerb(u.Handler):
			if e = byName[u.Handler]; e == nil {
				e = &HostEntry{Name: u.Handler, Source: "agent", Summary: "served by the story's agent_plugins (agent layer)"}
			}
		case ok:
			e = byName[served]
		default:
			// Missing calls are grouped by namespace (host.git for
			// host.git.push and host.git.merge): one provider serves them.
			ns := missingName(u.Handler)
			if e = byName[ns]; e == nil || e.Source != "missing" {
				e = &HostEntry{Name: ns, Source: "missing", Summary: "no handler: add a host provider (.kitsoki/plugins/<dir>/manifest.yaml hosts: [" + ns + "]) or pass --host-cassette FILE"}
			}
		}
		e.Uses = append(e.Uses, u)
		byName[e.Name] = e
	}
	out := make([]HostEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// missingName is the namespace of an unserved handler (host.<ns>), or the
// name itself when it has no op.
func missingName(h string) string {
	parts := strings.SplitN(h, ".", 3)
	if len(parts) == 3 {
		return parts[0] + "." + parts[1]
	}
	return h
}
