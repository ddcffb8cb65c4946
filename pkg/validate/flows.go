package validate

import (
	"bytes"

	"kitsoki/internal/safefile"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/story"
)

// lintFlows returns the findings of the flow and intent fixtures beside a
// sound, already loaded story, '# kitsoki:ignore' comments applied.
// Each question about the story's folder is asked once: whether it holds
// flows/ here, whether it holds intents/ by LintIntentSources itself.
func lintFlows(app string, st *story.Story) []diag.Diagnostic {
	if st == nil {
		return nil
	}
	var ds []diag.Diagnostic
	sources := map[string][]byte{}
	if flowtest.HasFlows(app) {
		ds, sources = flowtest.LintStorySources(app, st)
	}
	ds = append(ds, flowtest.LintIntentSources(app, st, sources)...)
	if len(ds) == 0 {
		return nil
	}
	return diag.FilterIgnored(ds, fixtureMarkers(st, sources))
}

// fixtureMarkers gives the bytes of a file holding an ignore marker: the
// fixture files as the lint read them, the story's as its load read them,
// any other read through the story's roots, never again by its path.
func fixtureMarkers(st *story.Story, sources map[string][]byte) func(string) ([]byte, bool) {
	read := diag.RootSource(st.Source, storyRoots(st)...)
	return func(p string) ([]byte, bool) {
		b, ok := sources[p]
		if !ok {
			b, ok = read(p)
		}
		return b, ok && bytes.Contains(b, ignoreMarker)
	}
}

// storyRoots are the project roots the load of st read through: its own
// and its children's outside it.
func storyRoots(st *story.Story) []*safefile.Root {
	roots := []*safefile.Root{st.FileRoot()}
	for _, ch := range st.Children() {
		if r := ch.FileRoot(); r != roots[0] {
			roots = append(roots, r)
		}
	}
	return roots
}
