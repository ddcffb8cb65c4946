package view

import (
	"kitsoki/pkg/fold"
	"kitsoki/pkg/story"
)

// FromFolded returns a renderer for a folded story whose states' view
// files resolve as the existing engine resolves them: against the
// directory of the state's top-level import (fold's UpstreamViewDir), so a
// grand-child's `extends:` layout comes from its top-level alias's story
// (docs/compat/fold.md "Per-alias view root"; the story rule view-root
// warns). opts (Width, OnWarning) apply after it.
func FromFolded(f *fold.Folded, opts ...Option) *Renderer {
	return newRenderer(f.Story, append([]Option{dirFor(f.UpstreamViewDir)}, opts...)...)
}

// ForStory folds st's imports (pkg/fold) and returns a renderer for the
// folded machine the engine runs; a story without imports folds to a copy
// of itself. The error is the fold's (*fold.Error).
func ForStory(st *story.Story, opts ...Option) (*Renderer, error) {
	f, err := fold.New(st, fold.Options{})
	if err != nil {
		return nil, err
	}
	return FromFolded(f, opts...), nil
}
