package compose

import "kitsoki/pkg/story"

// Adopt is a Loaded for a story another loader already read (eval's
// cached dataset stories), not compiled: enough to Resolve its plugin
// assembly.
func Adopt(path string, st *story.Story) *Loaded {
	return &Loaded{Path: path, Story: st}
}
