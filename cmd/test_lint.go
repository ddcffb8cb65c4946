package cmd

import (
	"kitsoki/internal/safefile"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/flowtest"
	"kitsoki/pkg/story"
	"kitsoki/pkg/validate"
)

// lintFlows adds the findings of the flow fixtures beside each sound story
// (flowtest.LintStory) to a validate result: warnings, and errors for
// fixtures that cannot run (which make the story's check fail).
func lintFlows(res *validate.Result, opts story.Options) {
	for _, f := range res.Files {
		if res.Invalid[f] || !flowtest.HasFlows(f) {
			continue
		}
		st, ds := story.Load(f, opts)
		if st == nil || diag.HasErrors(ds) {
			continue
		}
		fds := diag.FilterIgnored(flowtest.LintStory(f, st), func(p string) ([]byte, bool) {
			b, err := safefile.ReadFile(p, safefile.Data)
			return b, err == nil
		}) // '# kitsoki:ignore RULE' works in fixtures too
		if diag.HasErrors(fds) {
			res.Invalid[f] = true
		}
		res.Diagnostics = append(res.Diagnostics, fds...)
	}
	res.Diagnostics = diag.Sort(res.Diagnostics)
}
