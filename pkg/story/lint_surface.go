package story

import (
	"maps"
	"slices"

	"go.yaml.in/yaml/v3"
)

// What pkg/lint reads of a loaded story beyond its exported fields.

// Imported reports whether the story was loaded as an imports: child.
func (st *Story) Imported() bool { return st.child }

// Importer returns the story that first imported this child (nil at the
// top): a child may use its importer's intents, personas and hosts.
func (st *Story) Importer() *Story { return st.importer }

// Children returns every imports: child of a load, deepest first, once each.
func (st *Story) Children() []*Story { return st.children }

// StateAt returns the state at exactly path (import wrappers too), or nil.
func (st *Story) StateAt(path string) *State { return st.byPath[path] }

// StatePaths returns the path of every state StateAt knows, unordered.
func (st *Story) StatePaths() []string { return slices.Collect(maps.Keys(st.byPath)) }

// PhaseGenerated reports whether name is a top-level state phases: generates.
func (st *Story) PhaseGenerated(name string) bool { return st.phaseGen[name] }

// RootNode returns the manifest's document node (nil without a load).
func (st *Story) RootNode() *yaml.Node { return st.rootNode }

// PluginDeclared reports whether alias is under agent_plugins:, valid or not.
func (st *Story) PluginDeclared(alias string) bool { return st.pluginAliases[alias] }

// WithStates returns a copy of st with states as its top-level states, no
// phases: or phase_templates:, indexed as a load indexes (what pkg/lint
// checks of the expanded phases). st is not changed; the copy lists no
// children.
func (st *Story) WithStates(states []*State) *Story {
	c := *st
	c.States = states
	c.Phases, c.PhaseTemplates = nil, nil
	c.children = nil
	c.index()
	return &c
}
