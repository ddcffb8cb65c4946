package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checksMarkdown renders docs/checks.md: every rule Rules lists, with its
// severity, whether kitsoki run refuses a story with the finding, its
// example and, when one of goldenDirs holds <rule>/expect.golden (the
// per-rule goldens of pkg/story/testdata/broken and pkg/validate/testdata),
// the input's directory (repository-relative: goldenDirs are relative to
// pkg/validate) and the first diagnostic it produces, exactly as validate
// prints it.
// A test keeps docs/checks.md equal to this output.
func checksMarkdown(goldenDirs ...string) string {
	var b strings.Builder
	b.WriteString("# kitsoki validate: the checks\n\n")
	b.WriteString("<!-- Generated from the rule registry (validate.Rules: the diag.Rule values of pkg/story,\n")
	b.WriteString("     pkg/plugin, pkg/eval, pkg/mcpserve and pkg/flowtest) and the\n")
	b.WriteString("     per-rule goldens; do not edit: go test ./pkg/validate -run ChecksDoc -update -->\n\n")
	b.WriteString("Every diagnostic carries one of these rule ids (`file:line:col: severity: message [rule]`).\n")
	b.WriteString("`kitsoki validate --list-rules` prints the same list. A warning is silenced on its line with\n")
	b.WriteString("`# kitsoki:ignore <rule>` (or on the next line, from a comment alone on its line); a finding\n")
	b.WriteString("inside a block scalar (`key: |`) takes the comment on the key's line, and one in a JSON schema\n")
	b.WriteString("(`grammar-ignored`) on the story line naming the schema (`with: {schema: ...}`). An unknown\n")
	b.WriteString("id is itself a warning, and `--strict` reports an ignore that suppresses nothing; every\n")
	b.WriteString("rule's warnings are silenceable (`TestEveryRuleSilenceable`), errors never are.\n\n")
	b.WriteString("**run** says what `kitsoki run`, `test` and `eval` do with an error of the rule: *refuses*\n")
	b.WriteString("(the existing engine's loader rejects the story too) or *warns* (the existing engine loads the\n")
	b.WriteString("story and fails, if at all, only at run or render time; `lint.Blocking` is false).\n\n")
	b.WriteString("| rule | severity | run | summary |\n|---|---|---|---|\n")
	rules := Rules()
	for _, r := range rules {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, runVerdict(r.LintOnly), mdCell(r.Summary))
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n## %s\n\n%s.\n\nSeverity: %s. Run: %s.\n\n", r.ID, r.Summary, r.Severity, runVerdict(r.LintOnly))
		fmt.Fprintf(&b, "Example:\n\n```yaml\n%s\n```\n", r.Example)
		if why, ok := noGolden[r.ID]; ok {
			fmt.Fprintf(&b, "\nNo test input: %s.\n", why)
		}
		for _, dir := range goldenDirs {
			data, err := os.ReadFile(filepath.Join(dir, r.ID, "expect.golden"))
			if err != nil || len(data) == 0 {
				continue
			}
			lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
			// the first diagnostic of the rule, with its source line and caret
			for i, l := range lines {
				if strings.HasSuffix(l, "["+r.ID+"]") {
					end := min(i+3, len(lines))
					in := filepath.ToSlash(filepath.Join("pkg", "validate", dir, r.ID)) + "/"
					fmt.Fprintf(&b, "\nIts test input, [`%s`](../%s), reports:\n\n```text\n%s\n```\n", in, in, strings.Join(lines[i:end], "\n"))
					break
				}
			}
			break
		}
	}
	return b.String()
}

// noGolden names the registered rules that cannot have a test input and
// golden, and why (docs/checks.md says so; TestEveryRuleHasAGolden exempts
// them and only them).
var noGolden = map[string]string{
	"internal": "it reports a panic the loader recovered from: a kitsoki bug, which no input can trigger on purpose (a story that did would be fixed, not kept as a test)",
}

func runVerdict(lintOnly bool) string {
	if lintOnly {
		return "warns"
	}
	return "refuses"
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
