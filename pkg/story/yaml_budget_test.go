package story

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// Exhausting the YAML node budget is a positioned error, never a story
// that loads with the rest of the file silently dropped. The budget grows
// with the file: an alias bomb (in the header or inside a state, which
// turns the state-by-state parse off) is refused (a file whose tree alone
// passes the floor is refused as it is parsed: TestTreeNodeLimit). The
// budget's floor here is a small one (20,000 nodes, Options.maxNodes);
// TestNodeBudgetFloorIsMaxNodes pins the production one.
func TestNodeBudgetExhaustionIsAPositionedError(t *testing.T) {
	const floor = 20_000
	var bomb strings.Builder
	bomb.WriteString("x0: &a0 [q, q, q, q, q, q, q, q, q, q]\n")
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&bomb, "x%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				bomb.WriteString(", ")
			}
			fmt.Fprintf(&bomb, "*a%d", i-1)
		}
		bomb.WriteString("]\n")
	}
	states := "states:\n  done:\n    terminal: true\n  other:\n    terminal: true\n"
	for name, c := range map[string]struct{ world, states string }{
		"alias bomb":          {"  bomb:\n    type: map\n    default:\n" + indent(bomb.String(), "      "), states},
		"alias bomb in state": {"", states + "  bomb:\n    on_enter:\n      - set:\n" + indent(bomb.String(), "          ")},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src := "app:\n  id: budget\nworld:\n" + c.world + "  after:\n    type: int\n    default: 7\nroot: done\n" + c.states
			if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, ds := Load(dir, Options{maxNodes: floor})
			found := false
			for _, d := range ds {
				if d.Severity == diag.Error && strings.Contains(d.Message, "YAML nodes") {
					found = true
					if d.Line == 0 || d.File == "" {
						t.Errorf("not positioned: %s", d)
					}
				}
			}
			if found && !strings.Contains(render(ds), fmt.Sprintf("more than %d YAML nodes", floor+len(src))) {
				t.Errorf("the refusal does not name the budget %d:\n%s", floor+len(src), render(ds))
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

// TestNodeBudgetFloorIsMaxNodes: the zero Options (every load but a
// test's) walk each file within yamlnode.NodeBudget.
func TestNodeBudgetFloorIsMaxNodes(t *testing.T) {
	if got := (Options{}).nodeFloor(); got != yamlnode.MaxNodes {
		t.Errorf("the zero Options' node floor is %d, want yamlnode.MaxNodes", got)
	}
	if got := (Options{maxNodes: 9}).nodeFloor(); got != 9 {
		t.Errorf("maxNodes 9: %d", got)
	}
}

// TestAliasBudgetIsOneForTheLoad: each file had its own alias budget
// (yamlnode.NodeBudget), so 300 included files of 4 KB, each expanding
// to 66,000 nodes, loaded as 20 million nodes (800 MB, 14 s in
// validate). The part of the budget aliases may use is one for the whole
// load: past it, the file where it runs out is a positioned error saying
// so; the same files, fewer of them, load. Here the budget is a small one
// (20,000 nodes, Options.maxNodes) and each file expands to 820.
func TestAliasBudgetIsOneForTheLoad(t *testing.T) {
	const floor = 20_000
	part := func(j int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "world:\n  w%d_0: { type: list, default: &m0 [a, b, c, d, e, f, g, h, i] }\n", j)
		for i := 1; i < 3; i++ {
			p := fmt.Sprintf("*m%d", i-1)
			fmt.Fprintf(&b, "  w%d_%d: { type: list, default: &m%d [%s] }\n", j, i, i, strings.Repeat(p+", ", 8)+p)
		}
		return b.String()
	}
	for _, c := range []struct {
		files   int
		refused bool
	}{{40, true}, {20, false}} {
		dir := t.TempDir()
		for j := range c.files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%02d.yaml", j)), []byte(part(j)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		src := "app: { id: inc }\ninclude: [\"p*.yaml\"]\nroot: done\nstates:\n  done: { terminal: true }\n"
		if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, ds := Load(dir, Options{maxNodes: floor})
		var refused []diag.Diagnostic
		for _, d := range ds {
			if d.Severity == diag.Error && strings.Contains(d.Message, "nodes aliases may add to a whole story") {
				refused = append(refused, d)
			}
		}
		if (len(refused) > 0) != c.refused {
			t.Errorf("%d files: refused %v, want %v:\n%s", c.files, len(refused) > 0, c.refused, render(ds))
		}
		for _, d := range refused {
			if d.Line == 0 || !strings.HasSuffix(d.File, ".yaml") {
				t.Errorf("not positioned: %s", d)
			}
		}
	}
}
