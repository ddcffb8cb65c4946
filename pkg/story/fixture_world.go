package story

import (
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"kitsoki/internal/safefile"
	"kitsoki/internal/yamlnode"
)

// FixtureWorldKeys reads at most maxFixtureFiles files, maxFixtureBytes in all.
const (
	maxFixtureFiles = 1000
	maxFixtureBytes = 64 << 20
)

// FixtureWorldKeys returns, sorted and once each, the world keys the
// story's flow fixtures set (initial_world:, world_override:), read where
// kitsoki test finds them (<dir>/flows/*.yaml, <manifest>-flows/*.yaml)
// inside the project root and the fixture limits; an unreadable file gives
// no key (the test command reports it). The directories are listed through
// the root ([Glob]): one a symlink leads out to is never listed.
func (st *Story) FixtureWorldKeys() []string {
	if st.Dir == "" {
		return nil
	}
	var files []string
	for _, pat := range []string{filepath.Join(QuoteGlob(st.Dir), "flows", "*.yaml"), fixturesBeside(st.File)} {
		if pat == "" {
			continue
		}
		m, _, _ := Glob(st.FileRoot(), pat)
		files = append(files, m...)
	}
	if len(files) > maxFixtureFiles {
		files = files[:maxFixtureFiles]
	}
	var keys []string
	read := 0
	for _, f := range files {
		if read >= maxFixtureBytes {
			break
		}
		data, err := st.FileRoot().ReadFile(f, safefile.Story)
		if err != nil {
			continue
		}
		read += len(data)
		var doc yaml.Node
		if yamlnode.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			continue
		}
		top := yamlnode.Deref(doc.Content[0])
		if top == nil || top.Kind != yaml.MappingNode {
			continue
		}
		keys = append(keys, yamlnode.Keys(yamlnode.Get(top, "initial_world"))...)
		if turns := yamlnode.Deref(yamlnode.Get(top, "turns")); turns != nil && turns.Kind == yaml.SequenceNode {
			for _, t := range turns.Content {
				if t = yamlnode.Deref(t); t != nil && t.Kind == yaml.MappingNode {
					keys = append(keys, yamlnode.Keys(yamlnode.Get(t, "world_override"))...)
				}
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// fixturesBeside is the glob of a manifest's <name>-flows fixtures ("" if none).
func fixturesBeside(file string) string {
	if file == "" || file == "-" || !strings.HasSuffix(file, ".yaml") && !strings.HasSuffix(file, ".yml") {
		return ""
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	return QuoteGlob(strings.TrimSuffix(abs, filepath.Ext(abs))) + "-flows/*.yaml"
}
