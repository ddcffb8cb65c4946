package story

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/allocs"
	"kitsoki/pkg/diag"
)

// A story file's YAML tree weighs about 200 bytes a node, many times its
// text: a 60 MB one-line story of short items (no line to split states
// at) took validate past 4 GB before anything was checked. The parse now
// stops at the node past the limit (the node floor, Options.maxNodes: a
// small one here), a positioned error naming the fix, having allocated
// about the limit's worth of nodes; the same states written as a block
// mapping are parsed a batch at a time and load.
func TestTreeNodeLimit(t *testing.T) {
	const floor, states = 20_000, 3_000
	var flow, block strings.Builder
	flow.WriteString("{app: {id: big}, root: s0, intents: {next: {}}, states: {")
	block.WriteString("app: {id: big}\nroot: s0\nintents: {next: {}}\nstates:\n")
	for i := range states {
		st := fmt.Sprintf("s%d: {on_enter: [{say: \"at %d\"}], on: {next: [{target: s%d}]}}", i, i, (i+1)%states)
		flow.WriteString(st + ", ")
		block.WriteString("  " + st + "\n")
	}
	flow.WriteString("}}\n")
	oneLine := func(list int) string {
		return "{app: {id: big}, root: s0, world: {big: {type: list, default: [" + strings.Repeat("1,", list) + "1]}}, states: {s0: {terminal: true}}}\n"
	}
	for name, c := range map[string]struct {
		src     string
		refused bool
		maxMB   float64 // allocation bound of the load
	}{
		"one-line states":  {flow.String(), true, 0},
		"block states":     {block.String(), false, 0},
		"one-line list":    {oneLine(300_000), true, 16},
		"list under limit": {oneLine(floor / 2), false, 0},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var ds []diag.Diagnostic
			spent := allocs.During(func() { _, ds = Load(dir, Options{maxNodes: floor}) })
			var refusal *diag.Diagnostic
			for i, d := range ds {
				if strings.Contains(d.Message, fmt.Sprintf("holds more than %d YAML nodes", floor)) {
					refusal = &ds[i]
				}
			}
			if (refusal != nil) != c.refused {
				t.Fatalf("refused: %v, want %v:\n%s", refusal != nil, c.refused, render(ds))
			}
			if refusal == nil {
				if len(ds) != 0 {
					t.Fatalf("want no findings:\n%s", render(ds))
				}
				return
			}
			if refusal.Severity != diag.Error || refusal.Line != 1 || refusal.Col < 100 || !strings.Contains(refusal.File, "app.yaml") || !strings.Contains(refusal.Message, "include:") || len(ds) != 1 {
				t.Errorf("want one error at line 1, past the start, naming include: as the fix:\n%s", render(ds))
			}
			if mb := float64(spent) / (1 << 20); c.maxMB > 0 && mb > c.maxMB {
				t.Errorf("the refused load allocated %.1f MB, want at most %.0f (a node limit of %d)", mb, c.maxMB, floor)
			}
		})
	}
}
