package story

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
)

// Exhausting the YAML node budget is a positioned error, never a story
// that loads with the rest of the file silently dropped.
func TestNodeBudgetExhaustionIsAPositionedError(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString("x0: &a0 [q, q, q, q, q, q, q, q, q, q]\n")
	for i := 1; i <= 7; i++ {
		fmt.Fprintf(&bomb, "x%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				bomb.WriteString(", ")
			}
			fmt.Fprintf(&bomb, "*a%d", i-1)
		}
		bomb.WriteString("]\n")
	}
	var list strings.Builder
	list.WriteString("[")
	for i := range maxNodes + 100 {
		if i > 0 {
			list.WriteString(",")
		}
		list.WriteString("1")
	}
	list.WriteString("]")
	for name, worldValue := range map[string]string{
		"alias bomb": "  bomb:\n    type: map\n    default:\n" + indent(bomb.String(), "      "),
		"huge list":  "  big:\n    type: list\n    default: " + list.String() + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src := "app:\n  id: budget\nworld:\n" + worldValue + "  after:\n    type: int\n    default: 7\nroot: done\nstates:\n  done:\n    terminal: true\n"
			if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, ds := Load(dir, Options{})
			found := false
			for _, d := range ds {
				if d.Severity == diag.Error && strings.Contains(d.Message, "YAML nodes") {
					found = true
					if d.Line == 0 || d.File == "" {
						t.Errorf("not positioned: %s", d)
					}
				}
			}
			if !found {
				t.Fatalf("budget exhaustion not reported:\n%s", render(ds))
			}
		})
	}
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}
