package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// -wrap N (wrap.go) rewrites every story write made as the imported child
// of N one-state parents (top -> mid -> ... -> the story, each import
// aliased kid): DIR/NNN/app.yaml is the top parent, the story lives at
// DIR/NNN/kid/.../kid/, and the fixtures in DIR/NNN/flows/ are the
// story's, renamed as upstream's fold renames (story-format.md §1.2): the
// story's intents and world keys take a kid__ prefix per level (the
// reserved keys stay bare; an undeclared name is left as written), its
// state paths a kid. prefix per level, its @exit states become the
// innermost parent's terminal done, and a fixture that starts at the
// story's root (or names no start) starts at the top parent's home with an
// enter turn per level (one that seeds initial_world, bounds its event
// count or has no turn, or of a story whose root's entry runs an
// on_enter, starts at the story's root inside: entering an import resets
// the child's world to its defaults and runs the on_enter a fixture's
// start skips; a legacy document with no start stays at "", where
// upstream's legacy path starts it). A dotted target in the story's files names the
// folded tree from the top (conformance import-exit-to-folded), so each
// one whose first segment is a top state of the story gains the prefix,
// as does a phase template's target led by {{ tpl.id }} (phase states are
// top states).

// wrapAlias is the import alias every wrapping level uses.
const wrapAlias = "kid"

// wrapTree wraps every story under dir (a directory holding app.yaml).
func wrapTree(dir string, levels int) error {
	es, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range es {
		d := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(d, "app.yaml")); !e.IsDir() || err != nil {
			continue
		}
		if err := wrapStory(d, levels); err != nil {
			return fmt.Errorf("-wrap: story %s: %w", d, err)
		}
	}
	return nil
}

// wrapNames is what a wrap renames, read from the story as folded.
type wrapNames struct {
	root            string
	tops, world     map[string]bool
	intents, ifaces map[string]bool
	exits           []string
	levels          int
	// rootEnters: entering the story's root runs an on_enter (of the
	// root or a state its entry enters), which a fixture's start skips;
	// rootLeaf: the root has no child state (nor is an import)
	rootEnters, rootLeaf bool
}

// readWrapNames loads and folds the story at app. A story that does not
// load (a lint or import kind mistake) renames nothing but its states,
// read from nothing: its fixtures keep the names as written.
func readWrapNames(app string, levels int) *wrapNames {
	n := &wrapNames{tops: map[string]bool{}, world: map[string]bool{}, intents: map[string]bool{}, ifaces: map[string]bool{}, levels: levels}
	st, ds := story.Load(app, story.Options{})
	if st == nil || diag.HasErrors(ds) {
		return n
	}
	n.root = st.Root
	for _, name := range st.ImportOrder {
		n.tops[name] = true
	}
	for name := range st.Exits {
		n.exits = append(n.exits, name)
	}
	f, err := fold.New(st, fold.Options{Phases: phases.Expand})
	if err == nil && f != nil && f.Story != nil {
		st = f.Story
	}
	for _, s := range st.States {
		n.tops[s.Name] = true
		// the folded story's State index is the unfolded one's: look by name
		if s.Name == n.root {
			n.rootEnters, n.rootLeaf = entryRuns(s, 0), len(s.Children) == 0
		}
	}
	for _, w := range st.World {
		n.world[w.Name] = true
	}
	for name := range st.Intents {
		n.intents[name] = true
	}
	for name := range st.HostInterfaces {
		n.ifaces[name] = true
	}
	return n
}

// wrapStory wraps the story in d.
func wrapStory(d string, levels int) error {
	names := readWrapNames(filepath.Join(d, "app.yaml"), levels)
	tmp := d + ".unwrapped"
	if err := os.Rename(d, tmp); err != nil {
		return err
	}
	// The top keeps every file but the story's manifest and its own child
	// (fixtures, cassettes, scripts, bin/): the fixtures name them from
	// the top's directory.
	if err := os.CopyFS(d, os.DirFS(tmp)); err != nil {
		return err
	}
	if err := removeAll(d, "app.yaml", wrapAlias); err != nil {
		return err
	}
	inner := filepath.Join(append([]string{d}, repeatSlice(wrapAlias, levels)...)...)
	if err := os.CopyFS(inner, os.DirFS(tmp)); err != nil {
		return err
	}
	if err := removeAll(inner, "flows", "bin", "existing.json", "ours.json", "existing.log", "ours.log", "origin.txt", "mistake.txt"); err != nil {
		return err
	}
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := prefixDottedTargets(inner, names); err != nil {
		return err
	}
	for l := range levels {
		dir := filepath.Join(append([]string{d}, repeatSlice(wrapAlias, l)...)...)
		var exits []string
		if l == levels-1 {
			exits = names.exits
		}
		if err := writeWrapParent(dir, filepath.Base(d), exits); err != nil {
			return err
		}
		if err := copyViews(inner, dir, l); err != nil {
			return err
		}
	}
	return renameFixtures(filepath.Join(d, "flows"), names)
}

// copyViews copies the story's views/ to a middle level (l > 0): upstream
// renders a grand-child's views against its top-level alias's directory
// (conformance import-view-files), so without them a wrapped view story
// stops at its first extends.
func copyViews(inner, dir string, l int) error {
	src := filepath.Join(inner, "views")
	if _, err := os.Stat(src); l == 0 || err != nil {
		return nil
	}
	return os.CopyFS(filepath.Join(dir, "views"), os.DirFS(src))
}

// removeAll removes the named entries of dir.
func removeAll(dir string, names ...string) error {
	for _, n := range names {
		if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}

func repeatSlice(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// writeWrapParent writes dir/app.yaml: a root home whose enter intent
// enters the child kid, and a terminal done every exit of the story lands
// in (a middle level's child, itself a parent, declares none).
func writeWrapParent(dir, id string, exits []string) error {
	ex := m{}
	for _, e := range exits {
		ex[e] = m{"to": "done"}
	}
	imp := m{"source": "./" + wrapAlias}
	if len(ex) > 0 {
		imp["exits"] = ex
	}
	parent := m{
		"app":     m{"id": "wrap-" + id, "version": "0.1.0"},
		"intents": m{"enter": m{"description": "enter"}},
		"imports": m{wrapAlias: imp},
		"root":    "home",
		"states": m{
			"home": m{"view": "HOME", "on": m{"enter": []any{m{"target": wrapAlias}}}},
			"done": m{"view": "DONE", "terminal": true},
		},
	}
	b, err := yaml.Marshal(parent)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "app.yaml"), b, 0o644)
}

// dotted is a dotted (or slashed) state path as a target names one.
var dotted = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)([./])[A-Za-z0-9_./-]+$`)

// phaseDotted is a phase template's dotted target led by its phase's id
// ({{ tpl.id }}_review.{id}_inner): the id renders to a top state's name.
var phaseDotted = regexp.MustCompile(`^\{\{\s*tpl\.id\s*\}\}[A-Za-z0-9_-]*([./])`)

// fromTop is the separator (. or /) of a dotted target that names a path
// from a top state of the story, or false.
func (n *wrapNames) fromTop(v string) (string, bool) {
	if sm := dotted.FindStringSubmatch(v); sm != nil && n.tops[sm[1]] {
		return sm[2], true
	}
	if sm := phaseDotted.FindStringSubmatch(v); sm != nil {
		return sm[1], true
	}
	return "", false
}

// prefixDottedTargets rewrites, in every YAML file under dir, the
// target:, on_error: and to: values that name a dotted (or slashed)
// path from a top state of the story, adding the wrap's kid. (kid/)
// prefix.
func prefixDottedTargets(dir string, n *wrapNames) error {
	return filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		changed := false
		docs, err := rewriteDocs(b, func(doc *yaml.Node) {
			walkPairs(doc, func(k, v *yaml.Node) {
				if k.Value != "target" && k.Value != "on_error" && k.Value != "to" || v.Kind != yaml.ScalarNode {
					return
				}
				if sep, ok := n.fromTop(v.Value); ok {
					v.Value, changed = strings.Repeat(wrapAlias+sep, n.levels)+v.Value, true
				}
			})
		})
		if err != nil || !changed {
			return nil // not YAML this wrap can read: left as it was
		}
		return os.WriteFile(p, docs, 0o644)
	})
}

// walkPairs calls f on every key/value pair of every mapping under n.
func walkPairs(n *yaml.Node, f func(k, v *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			f(n.Content[i], n.Content[i+1])
		}
	}
	for _, c := range n.Content {
		walkPairs(c, f)
	}
}

// rewriteDocs decodes every document of b, calls edit on each and encodes
// them back, separated by ---.
func rewriteDocs(b []byte, edit func(doc *yaml.Node)) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var parts [][]byte
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		edit(&doc)
		out, err := encodeDoc(&doc)
		if err != nil {
			return nil, err
		}
		parts = append(parts, out)
	}
	return bytes.Join(parts, []byte("---\n")), nil
}
