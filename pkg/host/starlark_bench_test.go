package host

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkStarlarkCompareLoop is a script that does little but compare,
// subscript and test membership (300,000 times each): the operations the
// budget counts before their walk (starlark_walk.go), so this is what that
// counting costs a comparison-heavy script.
func BenchmarkStarlarkCompareLoop(b *testing.B) {
	dir := b.TempDir()
	script := `def main(ctx):
    xs = [i for i in range(1000)]
    seen = {}
    hits = 0
    for j in range(300):
        for i in range(1000):
            if xs[i] == j or i in seen:
                hits += 1
            if i < 10:
                seen[i] = True
    return {"hits": hits}
`
	if err := os.WriteFile(filepath.Join(dir, "cmp.star"), []byte(script), 0o644); err != nil {
		b.Fatal(err)
	}
	sidecar := "inputs: {}\noutputs:\n  hits: {type: int}\n"
	if err := os.WriteFile(filepath.Join(dir, "cmp.star.yaml"), []byte(sidecar), 0o644); err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"script": "cmp.star"}
	for b.Loop() {
		h := NewStarlarkRun(StarlarkOptions{NoNetwork: true})
		res, err := h.Call(b.Context(), &Call{Args: args, Env: Env{StoryDir: dir}})
		if err != nil || res.Error != "" {
			b.Fatal(res, err)
		}
	}
}
