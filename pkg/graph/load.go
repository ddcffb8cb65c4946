package graph

import (
	"kitsoki/pkg/compose"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// Load loads the story at path without compiling it, folds its imports
// and expands its phases, and draws the result. A story that does not
// load is a *compose.LoadError; a fold problem is a *fold.Error.
func Load(path string, opts story.Options) (*Graph, error) {
	ld, err := compose.Load(path, compose.LoadOptions{NoCompile: true, Story: opts})
	if err != nil {
		return nil, err
	}
	f, err := fold.New(ld.Story, fold.Options{Phases: phases.Expand})
	if err != nil {
		return nil, err
	}
	return Build(f), nil
}

// LoadUnder is [Load] confined to root, else, when no root is given and
// that fails, under the first of trees the story loads in. It also returns
// the root the story loaded under ("" for the default).
func LoadUnder(path, root string, trees []string) (*Graph, string, error) {
	g, err := Load(path, story.Options{Root: root})
	if err == nil || root != "" {
		return g, root, err
	}
	for _, t := range trees {
		if g, terr := Load(path, story.Options{Trees: []string{t}}); terr == nil {
			return g, t, nil
		}
	}
	return nil, "", err
}
