package main

// The intentfix kind (`gen write -kind intentfix`): the intent kind's
// stories (intent.go: global, state-local and checkpoint intents, typed
// slots with required, default: and values:, compound and parallel
// states, a wildcard arm, meta_modes:, an imported child) with routing
// fixtures for `kitsoki test intents` instead of flow fixtures
// (intentfix_fixture.go): a recording.yaml the static harness reads,
// intents/*.yaml documents and the command's flags (args, one per line;
// @BASE@ stands for the side's own copy of baseline.json).
// compare_intents.sh runs both engines on each story and diffs the exit
// codes, the text reports, the --json reports (DurationMillis and
// CostUSD dropped) and any baseline written.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// writeIntentFix writes n intentfix stories, story i from seed+i.
func writeIntentFix(dir string, n int, seed uint64) error {
	for i := range n {
		g := newGen(seed + uint64(i))
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := writeFiles(d, g.intentFixStory(fmt.Sprintf("genif-%d", seed+uint64(i)))); err != nil {
			return err
		}
	}
	return nil
}

// ifxState is what the routing fixtures know of one state: the intents
// it (or an ancestor) handles, a wildcard arm, and the slot declarations
// it sees (its own and its ancestors' intents: first, then the story's).
type ifxState struct {
	path    string
	allowed []string
	wild    bool
	decls   map[string]m // intent name -> declaration
}

// ifxModel is a story as its routing fixtures see it.
type ifxModel struct {
	states   []*ifxState // resting leaves first, then compounds
	declared []string    // every declared intent name
	meta     bool
	kid      bool
}

// intentFixStory draws one story (the intent kind's, its flow fixtures
// dropped), then its recording, fixtures and flags.
func (g *gen) intentFixStory(id string) []agentFile {
	var files []agentFile
	var app m
	for _, f := range g.intentStory(id) {
		if strings.HasPrefix(f.name, "flows/") {
			continue
		}
		if f.name == "app.yaml" {
			app = f.body.(m)
		}
		files = append(files, f)
	}
	mo := ifxStoryModel(app)
	return append(files, g.intentFixFiles(mo)...)
}

// ifxStoryModel reads the declarations and arms of app.
func ifxStoryModel(app m) *ifxModel {
	mo := &ifxModel{meta: app["meta_modes"] != nil, kid: app["imports"] != nil}
	global := map[string]m{}
	for _, key := range []string{"checkpoint_intents", "intents"} { // the story's own win
		decls, _ := app[key].(m)
		for _, name := range sortedKeys(decls) {
			global[name], _ = decls[name].(m)
		}
	}
	for name := range global {
		mo.declared = append(mo.declared, name)
	}
	slices.Sort(mo.declared)
	// what a state inherits: the intents its ancestors' arms allow, a
	// "*" arm above it, and the intents its ancestors declare
	type scope struct {
		allowed []string
		wild    bool
		local   map[string]m
	}
	var compounds []*ifxState
	states, _ := app["states"].(m)
	eachStateWith("", states, scope{}, func(path string, st m, up scope) scope {
		al := slices.Clone(up.allowed)
		w := up.wild
		on, _ := st["on"].(m)
		for _, in := range sortedKeys(on) {
			if in == "*" {
				w = true
			} else if !slices.Contains(al, in) {
				al = append(al, in)
			}
		}
		lo := map[string]m{}
		maps.Copy(lo, up.local)
		own, _ := st["intents"].(m)
		for _, n := range sortedKeys(own) {
			lo[n], _ = own[n].(m)
		}
		decls := maps.Clone(global)
		maps.Copy(decls, lo)
		s := &ifxState{path: path, allowed: al, wild: w, decls: decls}
		if _, ok := st["states"].(m); ok {
			compounds = append(compounds, s)
		} else {
			mo.states = append(mo.states, s)
		}
		return scope{al, w, lo}
	})
	if app["phases"] != nil {
		mo.states = append(mo.states,
			&ifxState{path: "ph_executing", allowed: []string{"go", "back"}, decls: global},
			&ifxState{path: "ph_awaiting_reply", allowed: []string{"approve", "go", "back"}, decls: global})
	}
	mo.states = append(mo.states, compounds...)
	mo.states = append(mo.states, ifxParLabels(mo.states)...)
	return mo
}

// ifxParLabels are the parallel configurations of p as a routing fixture
// names them (ROOT#LEAF|LEAF, the label a flow report shows): both regions'
// leaves, the intents either takes, and one label naming a leaf the story
// does not hold.
func ifxParLabels(states []*ifxState) []*ifxState {
	byPath := map[string]*ifxState{}
	for _, s := range states {
		byPath[s.path] = s
	}
	var out []*ifxState
	for _, pair := range [][2]string{{"p.ra.a1", "p.rb.b1"}, {"p.ra.a2", "p.rb.b2"}, {"p.ra.a1", "p.rb.zz"}} {
		a, b := byPath[pair[0]], byPath[pair[1]]
		if a == nil {
			return nil // no parallel state p
		}
		l := &ifxState{path: "p#" + pair[0] + "|" + pair[1], allowed: slices.Clone(a.allowed), wild: a.wild, decls: map[string]m{}}
		maps.Copy(l.decls, a.decls)
		if b != nil {
			for _, in := range b.allowed {
				if !slices.Contains(l.allowed, in) {
					l.allowed = append(l.allowed, in)
				}
			}
			l.wild = l.wild || b.wild
			maps.Copy(l.decls, b.decls)
		}
		out = append(out, l)
	}
	return out
}

// mustJSON is v as indented JSON (maps and scalars the generator built).
func mustJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // the generator's own values always marshal
	}
	return string(b) + "\n"
}

// mustYAML is v as YAML.
func mustYAML(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
