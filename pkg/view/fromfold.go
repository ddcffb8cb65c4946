package view

import (
	"kitsoki/pkg/fold"
	"kitsoki/pkg/story"
)

// FromFolded returns a renderer whose views resolve as the existing
// engine's do, against the state's top-level import directory
// (docs/compat/fold.md "Per-alias view root").
func FromFolded(f *fold.Folded) *Renderer {
	r := newRenderer(f.Story)
	r.dirFor = f.UpstreamViewDir
	return r
}

// ForStory folds st's imports and returns a renderer for the folded
// story; the error is the fold's (*fold.Error).
func ForStory(st *story.Story) (*Renderer, error) {
	f, err := fold.New(st, fold.Options{})
	if err != nil {
		return nil, err
	}
	return FromFolded(f), nil
}
