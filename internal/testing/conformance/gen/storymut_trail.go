package main

import (
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// trailKey is the world key -trail marks (a name no real story uses).
const trailKey = "zz_trail"

// markStoryTrail marks the story copied to d for -trail (storymut and
// mutate): every on_enter list and every arm of its own files (app.yaml
// and its includes, not an imported child's directory) gets a set of
// world zz_trail to itself plus E:<state>; or T:<state>.<intent>;, and
// app.yaml declares the key. The order effects ran in then shows in the
// world each turn compares, where a real story's effects mostly commute.
func markStoryTrail(d string) error {
	fs, err := storyFiles(d)
	if err != nil {
		return err
	}
	for _, f := range fs {
		if dir := filepath.Dir(f.path); dir != d && ownStory(d, dir) {
			continue // an imported child's files
		}
		if states := mapGet(f.root, "states"); states != nil {
			markStatesTrail("", states)
			f.dirty = true
		}
		if filepath.Clean(f.path) == filepath.Join(d, "app.yaml") {
			w := mapGet(f.root, "world")
			if w == nil || w.Kind != yaml.MappingNode {
				w = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				mapSet(f.root, "world", w)
			}
			mapSet(w, trailKey, node(`{type: string, default: ""}`))
			f.dirty = true
		}
	}
	return saveFiles(fs)
}

// ownStory reports whether dir (under d) or a directory between it and d
// holds a story of its own (an app.yaml).
func ownStory(d, dir string) bool {
	for ; dir != d && strings.HasPrefix(dir, d); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "app.yaml")); err == nil {
			return true
		}
	}
	return false
}

// markStatesTrail marks the states of the mapping states (path is their
// parent's, "" at the top) and their children.
func markStatesTrail(path string, states *yaml.Node) {
	if states.Kind != yaml.MappingNode {
		return
	}
	mark := func(s string) *yaml.Node {
		return node(`{set: {` + trailKey + `: "{{ world.` + trailKey + ` + '` + s + `;' }}"}}`)
	}
	for i := 0; i+1 < len(states.Content); i += 2 {
		name, st := states.Content[i].Value, states.Content[i+1]
		if st.Kind != yaml.MappingNode {
			continue
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		if en := mapGet(st, "on_enter"); en == nil {
			mapSet(st, "on_enter", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{mark("E:" + p)}})
		} else if en.Kind == yaml.SequenceNode {
			en.Content = append(en.Content, mark("E:"+p))
		}
		if on := mapGet(st, "on"); on != nil && on.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(on.Content); j += 2 {
				in, arms := on.Content[j].Value, on.Content[j+1]
				if arms.Kind != yaml.SequenceNode {
					continue
				}
				for _, arm := range arms.Content {
					if arm.Kind != yaml.MappingNode {
						continue
					}
					if effs := mapGet(arm, "effects"); effs == nil {
						mapSet(arm, "effects", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{mark("T:" + p + "." + in)}})
					} else if effs.Kind == yaml.SequenceNode {
						effs.Content = append(effs.Content, mark("T:"+p+"."+in))
					}
				}
			}
		}
		if ch := mapGet(st, "states"); ch != nil {
			markStatesTrail(p, ch)
		}
	}
}
