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
func lintFlows(app string, st *story.Story) []diag.Diagnostic {
	if st == nil || !flowtest.HasFlows(app) && !flowtest.HasIntents(app) {
		return nil
	}
	var ds []diag.Diagnostic
	sources := map[string][]byte{}
	if flowtest.HasFlows(app) {
		ds, sources = flowtest.LintStorySources(app, st)
	}
	ds = append(ds, flowtest.LintIntentSources(app, st, sources)...)
	return diag.FilterIgnored(ds, func(p string) ([]byte, bool) {
		b, ok := sources[p] // the fixture files, as the lint read them
		if !ok {
			var err error
			b, err = safefile.ReadFile(p, safefile.Data)
			ok = err == nil
		}
		return b, ok && bytes.Contains(b, ignoreMarker)
	})
}
