package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"kitsoki/pkg/story"
)

// Options configures Assemble.
type Options struct {
	// StoryDir starts the upward search for .kitsoki/plugins.yaml ("" = ".").
	StoryDir string
	// ProfilePath is --profile: used instead of the search. A missing file
	// given explicitly is an error.
	ProfilePath string
	// Story, when set, adds its agent aliases to the assembly.
	Story *story.Story
	// Getenv resolves the env var names of the redact config (os.Getenv if nil).
	Getenv func(string) string
}

// PluginStatus is one plugin in the assembly.
type PluginStatus struct {
	Descriptor
	Enabled bool   `json:"enabled"`
	Reason  string `json:"reason,omitempty"`
}

// AgentStatus is one agent alias in the assembly.
type AgentStatus struct {
	Alias     string `json:"alias"`
	Transport string `json:"transport"` // the agent_plugins plugin type
	Plugin    string `json:"plugin"`    // the transport's plugin id
	Lifecycle string `json:"lifecycle"`
	Enabled   bool   `json:"enabled"`
	Reason    string `json:"reason,omitempty"`
	Injected  bool   `json:"injected,omitempty"`
	// Timeout is the effective hard timeout of the alias's calls that set
	// no timeout: of their own (--call-timeout, else 10m); CallTimeouts
	// lists the invokes that do. Filled by AnnotateTimeouts.
	Timeout      string        `json:"timeout,omitempty"`
	CallTimeouts []CallTimeout `json:"call_timeouts,omitempty"`
}

// HookStatus is one hook registration, in chain order.
type HookStatus struct {
	Order   int    `json:"order"`
	Point   Point  `json:"point"`
	Plugin  string `json:"plugin"`
	OnError string `json:"on_error"`
}

// Warning is a non-fatal assembly problem (unknown ids, skipped manifests).
type Warning struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// Assembly is a resolved plugin assembly.
type Assembly struct {
	ProfilePath  string // "" when no profile was found
	ProfileFound bool
	PluginsDir   string // where external manifests are looked for
	Profile      *Profile
	BuildOrder   []string
	Plugins      []PluginStatus // sorted by id
	Agents       []AgentStatus  // sorted by alias
	Hooks        []HookStatus
	Warnings     []Warning

	manifests map[string]*Manifest
	getenv    func(string) string
}

// Assemble finds and parses the profile, discovers external plugins and
// resolves the assembly. The only error is a malformed or unreadable
// operator profile (*ProfileError): it fails loudly with positions.
func Assemble(opts Options) (*Assembly, error) {
	a := &Assembly{getenv: opts.Getenv, manifests: map[string]*Manifest{}}
	if a.getenv == nil {
		a.getenv = os.Getenv
	}
	dir := opts.StoryDir
	if dir == "" {
		dir = "."
	}
	switch {
	case opts.ProfilePath != "":
		a.ProfilePath = opts.ProfilePath
	default:
		a.ProfilePath = FindProfile(dir)
	}
	if a.ProfilePath != "" {
		p, err := LoadProfile(a.ProfilePath)
		if err != nil {
			return nil, err
		}
		a.Profile, a.ProfileFound = p, true
		a.PluginsDir = filepath.Join(filepath.Dir(a.ProfilePath), "plugins")
	} else {
		a.Profile = &Profile{}
		if kd := findDir(dir, ProfileDir); kd != "" {
			a.PluginsDir = filepath.Join(kd, "plugins")
		}
	}

	descs := Builtins()
	byID := map[string]*Descriptor{}
	for i := range descs {
		byID[descs[i].ID] = &descs[i]
	}
	if a.PluginsDir != "" {
		ms, warns := discoverManifests(a.PluginsDir)
		a.Warnings = append(a.Warnings, warns...)
		for _, m := range ms {
			if prev, dup := byID[m.ID]; dup {
				what := "a built-in plugin"
				if prev.Source == SourceExternal {
					what = "the external plugin in " + prev.Manifest
				}
				a.Warnings = append(a.Warnings, Warning{File: m.Path, Message: fmt.Sprintf("external plugin skipped: id %q is already used by %s; give it another id", m.ID, what)})
				continue
			}
			d := Descriptor{ID: m.ID, Version: m.Version, Summary: m.Summary, Provides: m.Provides, Requires: m.Requires,
				Source: SourceExternal, Manifest: m.Path}
			descs = append(descs, d)
			byID[m.ID] = &descs[len(descs)-1]
			a.manifests[m.ID] = m
		}
		byID = map[string]*Descriptor{} // descs may have moved
		for i := range descs {
			byID[descs[i].ID] = &descs[i]
		}
	}
	sortDescriptors(descs)

	// Agent aliases take part in resolution: they require their transport.
	type node struct {
		id       string
		requires []string
	}
	var nodes []node
	for _, d := range descs {
		nodes = append(nodes, node{d.ID, d.Requires})
	}
	var agents []AgentStatus
	if opts.Story != nil {
		for alias, ap := range opts.Story.AgentPlugins {
			as := AgentStatus{Alias: alias, Transport: ap.Plugin, Plugin: TransportID(ap.Plugin), Lifecycle: agentLifecycle(ap), Injected: ap.Injected}
			agents = append(agents, as)
			req := []string{as.Plugin}
			if as.Plugin == "" {
				req = []string{"transport:" + ap.Plugin}
			}
			nodes = append(nodes, node{alias, req})
		}
		sort.Slice(agents, func(i, j int) bool { return agents[i].Alias < agents[j].Alias })
	}
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.id] = true
	}

	reason := map[string]string{}
	where := func(r Ref) string {
		return fmt.Sprintf("%s:%d:%d", a.ProfilePath, r.Line, r.Col)
	}
	for _, r := range a.Profile.Disable {
		if !known[r.ID] {
			a.Warnings = append(a.Warnings, Warning{File: a.ProfilePath, Line: r.Line, Col: r.Col,
				Message: fmt.Sprintf("disable: unknown plugin id %q (ignored); known ids: %s", r.ID, strings.Join(sortedKnown(known), ", "))})
			continue
		}
		if d := byID[r.ID]; d != nil && d.Kernel {
			a.Warnings = append(a.Warnings, Warning{File: a.ProfilePath, Line: r.Line, Col: r.Col,
				Message: fmt.Sprintf("disable: %s is part of the kernel and cannot be disabled (ignored)", r.ID)})
			continue
		}
		reason[r.ID] = "disabled by the profile (" + where(r) + ")"
	}
	for _, r := range a.Profile.Configured {
		if r.ID != IDRedact && r.ID != IDBudget {
			msg := fmt.Sprintf("config: plugin %q takes no configuration here (ignored); configurable: budget, redact", r.ID)
			if !known[r.ID] {
				msg = fmt.Sprintf("config: unknown plugin id %q (ignored); configurable: budget, redact", r.ID)
			}
			a.Warnings = append(a.Warnings, Warning{File: a.ProfilePath, Line: r.Line, Col: r.Col, Message: msg})
		}
	}

	// Build order: Kahn's algorithm, ties broken by id.
	reqs := map[string][]string{}
	indeg := map[string]int{}
	users := map[string][]string{}
	for _, n := range nodes {
		reqs[n.id] = n.requires
		for _, q := range n.requires {
			if known[q] {
				indeg[n.id]++
				users[q] = append(users[q], n.id)
			}
		}
	}
	var ready, order []string
	for _, n := range nodes {
		if indeg[n.id] == 0 {
			ready = append(ready, n.id)
		}
	}
	for len(ready) > 0 {
		sort.Strings(ready)
		id := ready[0]
		ready = ready[1:]
		order = append(order, id)
		if _, off := reason[id]; !off {
			for _, q := range reqs[id] {
				switch {
				case !known[q]:
					reason[id] = fmt.Sprintf("requires %s, which is not a known plugin", q)
					a.Warnings = append(a.Warnings, Warning{Message: fmt.Sprintf("%s requires %q, which is not a known plugin; it is disabled", id, q)})
				case reason[q] != "":
					reason[id] = fmt.Sprintf("requires %s, which is disabled", q)
				}
				if reason[id] != "" {
					break
				}
			}
		}
		for _, u := range users[id] {
			indeg[u]--
			if indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	placed := map[string]bool{}
	for _, id := range order {
		placed[id] = true
	}
	for _, n := range nodes {
		if !placed[n.id] {
			reason[n.id] = "requires cycle: " + n.id + " -> " + strings.Join(n.requires, ", ")
			a.Warnings = append(a.Warnings, Warning{Message: fmt.Sprintf("%s is part of a requires cycle; it is disabled", n.id)})
		}
	}
	isAlias := map[string]bool{}
	for _, ag := range agents {
		isAlias[ag.Alias] = true
	}
	for _, id := range order {
		if !isAlias[id] {
			a.BuildOrder = append(a.BuildOrder, id)
		}
	}
	for _, d := range descs {
		a.Plugins = append(a.Plugins, PluginStatus{Descriptor: d, Enabled: reason[d.ID] == "", Reason: reason[d.ID]})
	}
	for i := range agents {
		agents[i].Reason = reason[agents[i].Alias]
		agents[i].Enabled = agents[i].Reason == ""
	}
	a.Agents = agents

	// Hook registrations in chain order: budget first (cheapest halt),
	// external plugins in directory order, redact last so that what reaches
	// the model is masked whatever an earlier hook wrote.
	add := func(p Point, id, onErr string) {
		a.Hooks = append(a.Hooks, HookStatus{Order: len(a.Hooks) + 1, Point: p, Plugin: id, OnError: onErr})
	}
	if !a.Enabled(IDHostRun) {
		add(PointHostPreCall, IDHostRun, OnErrorVeto) // the gate: refuses host.run
	}
	if a.Enabled(IDBudget) {
		add(PointPreDispatch, IDBudget, OnErrorContinue)
		add(PointPostReturn, IDBudget, OnErrorContinue)
	}
	var ext []*Manifest
	for _, m := range a.manifests {
		ext = append(ext, m)
	}
	sort.Slice(ext, func(i, j int) bool { return ext[i].Path < ext[j].Path })
	for _, m := range ext {
		if !a.Enabled(m.ID) {
			continue
		}
		for _, h := range m.Hooks {
			add(h.Point, m.ID, h.OnError)
		}
	}
	if a.Enabled(IDRedact) {
		add(PointPreDispatch, IDRedact, OnErrorVeto)
	}
	return a, nil
}

// Enabled reports whether the plugin id is enabled (unknown ids are not).
func (a *Assembly) Enabled(id string) bool {
	for _, p := range a.Plugins {
		if p.ID == id {
			return p.Enabled
		}
	}
	return false
}

// Agent returns the status of an agent alias ("" = agent.claude).
func (a *Assembly) Agent(alias string) (AgentStatus, bool) {
	if alias == "" {
		alias = story.DefaultAgentAlias
	}
	for _, ag := range a.Agents {
		if ag.Alias == alias {
			return ag, true
		}
	}
	return AgentStatus{}, false
}

// TransportEnabled reports whether agent_plugins plugin type t may be used.
func (a *Assembly) TransportEnabled(t string) bool { return a.Enabled(TransportID(t)) }

func sortDescriptors(ds []Descriptor) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].ID < ds[j].ID })
}

func sortedKnown(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func findDir(start, name string) string {
	d, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}
