package graph

import (
	"kitsoki/pkg/compose"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/phases"
	"kitsoki/pkg/story"
)

// Load loads the story at path (a directory or its app.yaml) through
// pkg/compose without compiling it, folds its imports and expands its
// phases, and draws the result. opts carries the project root the
// story's files are confined to (Root, Trees). A story that does not load
// is a *compose.LoadError; a fold problem is a *fold.Error.
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
