package expr

import "testing"

// TestOnlyReads: a template of plain member reads and literals renders on
// any world, and OnlyReads says so; each form it refuses fails to render
// on some world.
func TestOnlyReads(t *testing.T) {
	worlds := []Env{{}, {"world": map[string]any{"k": "s", "n": 1}}, {"world": map[string]any{"k": map[string]any{"j": 1}}}, {"world": map[string]any{"k": 3}}}
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"{{ world.k }}", true},
		{"a {{ world?.k }} b {{ slots.x }}", true},
		{`{{ world["k"] }}`, true},
		{"{{ 'lit' }} and {{ 2 }}", true},
		{"{{ world.k.j }}", false},
		{"{{ world.n + 'x' }}", false},
		{"{{ if world.k }}a{{ end }}", false},
		{"{{ range world.k }}a{{ end }}", false},
		{"{{ len(world.k) }}", false},
	} {
		tp, err := CompileTemplate(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := tp.OnlyReads(); got != c.want {
			t.Errorf("%s: OnlyReads() = %v, want %v", c.src, got, c.want)
		}
		failed := false
		for _, env := range worlds {
			if _, err := tp.Render(env); err != nil {
				failed = true
			}
		}
		if c.want && failed {
			t.Errorf("%s: OnlyReads, yet a render failed", c.src)
		}
		if !c.want && !failed {
			t.Errorf("%s: refused, yet renders on every world tried: pick a world it fails on", c.src)
		}
	}
}
