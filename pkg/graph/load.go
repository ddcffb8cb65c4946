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
