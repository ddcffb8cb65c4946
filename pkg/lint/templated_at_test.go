package lint

import (
	"fmt"
	"strings"
	"testing"
)

// TestRootNeverTemplated: upstream looks root: up as written, a template
// of any kind included ("root: state ... is not declared in states"), so
// ours refuses each of these stories too (probed on kitsoki-existing
// validate; hunt125).
func TestRootNeverTemplated(t *testing.T) {
	for _, root := range []string{`{{ "a" }}`, `{{a`, `{%a`, `{% if true %}a{% endif %}`} {
		dir := t.TempDir()
		write(t, dir, "app.yaml", "app: {id: tp}\nintents: {go: {}}\nroot: '"+root+"'\nstates:\n  a:\n    on: {go: [{target: b}]}\n  b: {}\n")
		_, got := loadDiags(t, dir)
		if want := fmt.Sprintf("root: state %q is not declared in states", root); !strings.Contains(got, want) {
			t.Errorf("root %q: want %q; got:\n%s", root, want, got)
		}
	}
}
