package plugin

import (
	"cmp"
	"container/heap"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"kitsoki/internal/proc"
	"kitsoki/internal/safefile"
	"kitsoki/pkg/story"
)

// Options configures Assemble (the profile layers it merges: the package
// doc and layers).
type Options struct {
	// StoryDir starts the upward search for .kitsoki/plugins.yaml ("" = ".").
	StoryDir string
	// ProfilePath is --profile: the operator's profile, applied last. A
	// missing file given explicitly is an error.
	ProfilePath string
	// NoUserProfile leaves the user's profile out (tests that must not
	// see the machine's configuration).
	NoUserProfile bool
	// Sandbox disables every external plugin (hooks, host providers) with
	// the reason SandboxReason: no plugin process is ever started
	// (kitsoki test --sandbox).
	Sandbox bool
	// MinimalEnv starts external plugin processes with proc.EnvMinimal
	// (PATH, HOME, locale, temp dir) instead of kitsoki's whole
	// environment: kitsoki test, where the repository's hooks must not
	// see the CI job's secrets.
	MinimalEnv bool
	// Story, when set, adds its agent aliases to the assembly.
	Story *story.Story
	// Getenv resolves the env var names of the redact config (os.Getenv if nil).
	Getenv func(string) string
	// Redact masks the run's secrets in everything a hook or host-provider
	// process writes (its stderr, a provider's answers, a hook's errors and
	// reasons): they inherit kitsoki's environment, which holds them. It is
	// the run's one redactor, which pkg/compose builds and also hands the
	// agent registry (agent.Redactor.Mask); nil: none.
	Redact func(string) string
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
	ProfilePath  string // the last profile layer applied; "" when none was found
	ProfileFound bool
	Layers       []Layer  // every profile applied, in order
	PluginsDirs  []string // where external manifests are looked for, in order
	Profile      *Profile // the layers merged
	BuildOrder   []string
	Plugins      []PluginStatus // sorted by id
	Agents       []AgentStatus  // sorted by alias
	Hooks        []HookStatus
	Warnings     []Warning

	manifests map[string]*Manifest
	repo      *safefile.Root // the checkout: its profiles and manifests are read inside it
	getenv    func(string) string
	childEnv  proc.EnvPolicy // external plugin processes' environment
	// childAfter arms each call timeout of the external plugin processes
	// (childproc.Config.After; nil: real timers). Tests set it to fire a
	// timeout when they choose.
	childAfter func(time.Duration) <-chan time.Time
	// mask is Options.Redact: the run's secrets masked in what hook and
	// host-provider processes write.
	mask func(string) string
}

// SandboxReason is why an external plugin is disabled under Options.Sandbox.
const SandboxReason = "not started under --sandbox (KITSOKI_SANDBOX): no plugin process runs on untrusted code"

// Assemble finds and parses the profile, discovers external plugins and
// resolves the assembly. The only error is a malformed or unreadable
// operator profile (*ProfileError): it fails loudly with positions.
func Assemble(opts Options) (*Assembly, error) { return assembleFor(opts, true) }

// assembleFor is Assemble; with full false it stops once every warning is
// known (the build order resolved): Plugins, Agents and Hooks are left
// unset, as ProfileDiagnostics reads only the warnings.
func assembleFor(opts Options, full bool) (*Assembly, error) {
	a := &Assembly{getenv: opts.Getenv, manifests: map[string]*Manifest{}, childEnv: proc.EnvInherit, mask: opts.Redact}
	if a.getenv == nil {
		a.getenv = os.Getenv
	}
	if opts.MinimalEnv {
		a.childEnv = proc.EnvMinimal
	}
	if err := a.loadProfile(opts); err != nil {
		return nil, err
	}
	descs, byID := a.descriptors()
	a.repo.Close() // every repository file is read by now
	agents, nodes := storyAgents(opts, descs)
	known := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		known[n.id] = true
	}
	reason := a.profileReasons(known, byID)
	if opts.Sandbox {
		for id := range a.manifests {
			if reason[id] == "" {
				reason[id] = SandboxReason
			}
		}
	}
	a.BuildOrder = a.buildOrder(nodes, agents, known, reason)
	if !full {
		return a, nil
	}
	a.Plugins = make([]PluginStatus, 0, len(descs))
	for _, d := range descs {
		a.Plugins = append(a.Plugins, PluginStatus{Descriptor: d, Enabled: reason[d.ID] == "", Reason: reason[d.ID]})
	}
	for i := range agents {
		agents[i].Reason = reason[agents[i].Alias]
		agents[i].Enabled = agents[i].Reason == ""
	}
	a.Agents = agents
	a.registerHooks()
	return a, nil
}

// node is one vertex of the build graph: a plugin or an agent alias.
type node struct {
	id       string
	requires []string
}

// descriptors returns the built-in descriptors plus the external ones
// discovered under PluginsDirs (a clashing id is skipped with a warning:
// the first directory's wins), sorted, and an index by id.
func (a *Assembly) descriptors() ([]Descriptor, map[string]*Descriptor) {
	builtin := builtinDescriptors()
	descs := builtin
	for _, dir := range a.PluginsDirs {
		descs = a.addExternal(descs, dir)
	}
	if len(descs) > len(builtin) { // the built-in ones are sorted already, and shared
		sortDescriptors(descs)
	}
	byID := make(map[string]*Descriptor, len(descs))
	for i := range descs {
		byID[descs[i].ID] = &descs[i]
	}
	return descs, byID
}

// addExternal appends the manifests found under dir whose id is free and
// records them in a.manifests.
func (a *Assembly) addExternal(descs []Descriptor, dir string) []Descriptor {
	ms, warns := discoverManifests(a.repo, dir)
	a.Warnings = append(a.Warnings, warns...)
	owner := map[string]string{} // id -> "" (built-in) or manifest path
	for _, d := range descs {
		owner[d.ID] = d.Manifest
	}
	for _, m := range ms {
		if prev, dup := owner[m.ID]; dup {
			what := "a built-in plugin"
			if prev != "" {
				what = "the external plugin in " + prev
			}
			a.Warnings = append(a.Warnings, Warning{File: m.Path, Message: fmt.Sprintf("external plugin skipped: id %q is already used by %s; give it another id", m.ID, what)})
			continue
		}
		descs = append(descs, Descriptor{ID: m.ID, Version: m.Version, Summary: m.Summary, Provides: m.Provides, Requires: m.Requires,
			Source: sourceExternal, Manifest: m.Path})
		owner[m.ID] = m.Path
		a.manifests[m.ID] = m
	}
	return descs
}

// storyAgents returns the story's agent aliases (sorted) and the build
// graph's nodes: every descriptor, then every alias requiring its
// transport.
func storyAgents(opts Options, descs []Descriptor) ([]AgentStatus, []node) {
	nodes := make([]node, 0, len(descs))
	for _, d := range descs {
		nodes = append(nodes, node{d.ID, d.Requires})
	}
	if opts.Story == nil {
		return nil, nodes
	}
	var agents []AgentStatus
	for alias, ap := range opts.Story.AgentPlugins {
		as := AgentStatus{Alias: alias, Transport: ap.Plugin, Plugin: transportID(ap.Plugin), Lifecycle: agentLifecycle(ap), Injected: ap.Injected}
		agents = append(agents, as)
		nodes = append(nodes, node{alias, []string{cmp.Or(as.Plugin, "transport:"+ap.Plugin)}}) // an unknown transport by its type
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].Alias < agents[j].Alias })
	return agents, nodes
}

// profileReasons applies the profile's disable: list (unknown and kernel
// ids are warnings) and warns about config: blocks nothing reads. It
// returns the disable reason by id.
func (a *Assembly) profileReasons(known map[string]bool, byID map[string]*Descriptor) map[string]string {
	reason := map[string]string{}
	warn := func(r Ref, msg string) {
		a.Warnings = append(a.Warnings, Warning{File: r.File, Line: r.Line, Col: r.Col, Message: msg})
	}
	for _, r := range a.Profile.Disable {
		switch d := byID[r.ID]; {
		case !known[r.ID]:
			warn(r, fmt.Sprintf("disable: unknown plugin id %q (ignored); known ids: %s", r.ID, strings.Join(slices.Sorted(maps.Keys(known)), ", ")))
		case d != nil && d.Kernel:
			warn(r, fmt.Sprintf("disable: %s is part of the kernel and cannot be disabled (ignored)", r.ID))
		default:
			reason[r.ID] = fmt.Sprintf("disabled by the profile (%s:%d:%d)", r.File, r.Line, r.Col)
		}
	}
	for _, r := range a.Profile.Configured {
		if r.ID == idRedact || r.ID == idBudget {
			continue
		}
		if known[r.ID] {
			warn(r, fmt.Sprintf("config: plugin %q takes no configuration here (ignored); configurable: budget, redact", r.ID))
		} else {
			warn(r, fmt.Sprintf("config: unknown plugin id %q (ignored); configurable: budget, redact", r.ID))
		}
	}
	return reason
}

// buildOrder orders the nodes by Kahn's algorithm (ties broken by id),
// disabling in reason each node that requires an unknown or disabled id
// and every node of a requires cycle. It returns the order of the plugins
// (agent aliases left out).
func (a *Assembly) buildOrder(nodes []node, agents []AgentStatus, known map[string]bool, reason map[string]string) []string {
	// Vertices are the distinct node ids (a repeated id is one vertex; the
	// known ids are the nodes'), found through an index: a repository may
	// hold thousands of plugin directories, a story thousands of aliases.
	ids := make([]string, 0, len(nodes))
	index := make(map[string]int, len(nodes))
	for _, n := range nodes {
		if _, ok := index[n.id]; !ok {
			index[n.id] = len(ids)
			ids = append(ids, n.id)
		}
	}
	vertex := func(id string) int { return index[id] }
	reqs := make([][]string, len(ids)) // of the last node with the id
	indeg := make([]int, len(ids))
	users := make([][]int, len(ids))
	for _, n := range nodes {
		v := vertex(n.id)
		reqs[v] = n.requires
		for _, q := range n.requires {
			if known[q] {
				indeg[v]++
				qv := vertex(q)
				users[qv] = append(users[qv], v)
			}
		}
	}
	ready, order := &readyVertices{ids: ids}, make([]int, 0, len(ids))
	for _, n := range nodes {
		if v := vertex(n.id); indeg[v] == 0 {
			heap.Push(ready, v)
		}
	}
	for ready.Len() > 0 {
		v := heap.Pop(ready).(int) // ties broken by id
		order = append(order, v)
		a.inheritDisable(ids[v], reqs[v], known, reason)
		for _, u := range users[v] {
			indeg[u]--
			if indeg[u] == 0 {
				heap.Push(ready, u)
			}
		}
	}
	placed := make([]bool, len(ids))
	for _, v := range order {
		placed[v] = true
	}
	for _, n := range nodes {
		if !placed[vertex(n.id)] {
			reason[n.id] = "requires cycle: " + n.id + " -> " + strings.Join(n.requires, ", ")
			a.Warnings = append(a.Warnings, Warning{Message: fmt.Sprintf("%s is part of a requires cycle; it is disabled", n.id)})
		}
	}
	aliases := make(map[string]bool, len(agents))
	for _, ag := range agents {
		aliases[ag.Alias] = true
	}
	var plugins []string
	for _, v := range order {
		if !aliases[ids[v]] {
			plugins = append(plugins, ids[v])
		}
	}
	return plugins
}

// readyVertices are the vertices whose requirements are placed, a heap
// whose least is the one with the least id (container/heap's Interface).
type readyVertices struct {
	v   []int
	ids []string
}

func (r *readyVertices) Len() int           { return len(r.v) }
func (r *readyVertices) Less(i, j int) bool { return r.ids[r.v[i]] < r.ids[r.v[j]] }
func (r *readyVertices) Swap(i, j int)      { r.v[i], r.v[j] = r.v[j], r.v[i] }
func (r *readyVertices) Push(x any)         { r.v = append(r.v, x.(int)) }
func (r *readyVertices) Pop() any {
	x := r.v[len(r.v)-1]
	r.v = r.v[:len(r.v)-1]
	return x
}

// inheritDisable disables id (once) when its first failing requirement is
// unknown (a warning) or disabled.
func (a *Assembly) inheritDisable(id string, requires []string, known map[string]bool, reason map[string]string) {
	if _, off := reason[id]; off {
		return
	}
	for _, q := range requires {
		switch {
		case !known[q]:
			reason[id] = fmt.Sprintf("requires %s, which is not a known plugin", q)
			a.Warnings = append(a.Warnings, Warning{Message: fmt.Sprintf("%s requires %q, which is not a known plugin; it is disabled", id, q)})
			return
		case reason[q] != "":
			reason[id] = fmt.Sprintf("requires %s, which is disabled", q)
			return
		}
	}
}

// registerHooks records the hook registrations in chain order: the
// host.run gate when host.run is disabled, budget first (cheapest halt),
// external plugins in directory order, redact last so that what reaches
// the model is masked whatever an earlier hook wrote.
func (a *Assembly) registerHooks() {
	add := func(p Point, id, onErr string) {
		a.Hooks = append(a.Hooks, HookStatus{Order: len(a.Hooks) + 1, Point: p, Plugin: id, OnError: onErr})
	}
	if !a.Enabled(idHostRun) {
		add(pointHostPreCall, idHostRun, onErrorVeto) // the gate: refuses host.run
	}
	if a.Enabled(idBudget) {
		add(pointPreDispatch, idBudget, onErrorContinue)
		add(pointPostReturn, idBudget, onErrorContinue)
	}
	for _, m := range slices.SortedFunc(maps.Values(a.manifests), func(x, y *Manifest) int { return strings.Compare(x.Path, y.Path) }) {
		if !a.Enabled(m.ID) {
			continue
		}
		for _, h := range m.Hooks {
			add(h.Point, m.ID, h.OnError)
		}
	}
	if a.Enabled(idRedact) {
		add(pointPreDispatch, idRedact, onErrorVeto)
	}
}

// Enabled reports whether the plugin id is enabled (unknown ids are not).
func (a *Assembly) Enabled(id string) bool { return a.plugin(id).Enabled }

// plugin is the status of plugin id (zero, not enabled, when unknown).
func (a *Assembly) plugin(id string) PluginStatus {
	// Plugins are sorted by id: found by a binary search, since a
	// repository may hold thousands (registerHooks asks for each)
	if i, ok := slices.BinarySearchFunc(a.Plugins, id, func(p PluginStatus, id string) int { return strings.Compare(p.ID, id) }); ok {
		return a.Plugins[i]
	}
	return PluginStatus{}
}

// Agent returns the status of an agent alias ("" = agent.claude).
func (a *Assembly) Agent(alias string) (AgentStatus, bool) {
	if alias == "" {
		alias = story.DefaultAgentAlias
	}
	// Agents are sorted by alias (mcp serve asks for each call site's)
	if i, ok := slices.BinarySearchFunc(a.Agents, alias, func(ag AgentStatus, alias string) int { return strings.Compare(ag.Alias, alias) }); ok {
		return a.Agents[i], true
	}
	return AgentStatus{}, false
}

func sortDescriptors(ds []Descriptor) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].ID < ds[j].ID })
}

// kitsokiDir is the nearest .kitsoki directory at or above start that
// marks a project ([story.HasKitsokiDir]): one holding only a run's
// traces does not hide the project's plugins/ above it.
func kitsokiDir(start string) string {
	d, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	if root, found := story.Above(d, story.HasKitsokiDir); found {
		return filepath.Join(root, ProfileDir)
	}
	return ""
}

// hostDisabled reports whether the assembly disables the built-in host
// handler name (a plugin providing "host:<name>", e.g. host.run) and why.
// kitsoki run and kitsoki test serve such a name by [Assembly.DisabledHost];
// kitsoki run's host/pre-call gate also refuses host.run by name.
func (a *Assembly) hostDisabled(name string) (reason string, disabled bool) {
	for _, p := range a.Plugins {
		if !p.Enabled && p.Source == sourceBuiltin && slices.Contains(p.Provides, "host:"+name) {
			return p.Reason, true
		}
	}
	return "", false
}
