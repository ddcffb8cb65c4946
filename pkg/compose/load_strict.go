package compose

import (
	"kitsoki/pkg/diag"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// StrictLoadError is a story LoadStrict refuses: every error diagnostic
// (lint-only ones included), and the story as far as it loaded (nil when
// it could not be read) so a watcher still knows which files to watch.
type StrictLoadError struct {
	Path        string
	Story       *story.Story
	Diagnostics []diag.Diagnostic
}

func (e *StrictLoadError) Error() string {
	return e.Path + ": the story does not load"
}

// LoadStrict is Load for a server that offers a story's agents without
// running it (kitsoki mcp serve): any error diagnostic refuses the story,
// lint-only ones included, since there is no run to warn before.
func LoadStrict(path string, o LoadOptions) (*Loaded, error) {
	st, ds := lint.Load(path, o.Story)
	if st == nil || diag.HasErrors(ds) {
		var errs []diag.Diagnostic
		for _, d := range ds {
			if d.Severity == diag.Error {
				errs = append(errs, d)
			}
		}
		return nil, &StrictLoadError{Path: path, Story: st, Diagnostics: errs}
	}
	ld := &Loaded{Path: path, Story: st, Diagnostics: ds}
	if !o.NoCompile {
		ld.Compile(o.Compile)
	}
	return ld, nil
}
