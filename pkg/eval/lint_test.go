package eval

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// A story finding upstream's loader accepts (here a dangling on_error, of
// the lint-only rule on-error-target) does not make the dataset invalid: it
// is a warning of the validation, shown by eval show.
func TestLintFindingIsAWarningNotInvalid(t *testing.T) {
	path := writeFixture(t, fixture{Profiles: "plug", Models: "    plug: [good]", Selection: "        on_error: nowhere_at_all\n"})
	d, err := LoadDataset(path)
	if err != nil {
		t.Fatal(err)
	}
	v := Validate(d, &StoryLoader{})
	if !v.OK() {
		t.Fatalf("dataset invalid because of a lint finding: %v", v.Findings)
	}
	found := false
	for _, f := range v.Findings {
		if f.Severity == diag.Warning && strings.Contains(f.Message, "[on-error-target]") && strings.Contains(f.Message, "nowhere_at_all") {
			found = true
		}
	}
	if !found {
		t.Fatalf("lint finding not reported as a warning: %v", v.Findings)
	}
}
