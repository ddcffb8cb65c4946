package story

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genStory writes a story of n states with 5 effects each (plus a
// transition per state) and returns its directory.
func genStory(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("app: {id: gen}\nroot: s0\nhosts: [host.run, host.agent.decide]\n")
	b.WriteString("agents:\n  judge: {system_prompt: judge, tools: [Read]}\n")
	b.WriteString("world:\n  count: {type: int, default: 0}\n  verdict: {type: object, default: {}}\n  out: {type: string, default: \"\"}\n")
	b.WriteString("intents:\n  next: {}\n  back: {}\nstates:\n")
	for i := 0; i < n; i++ {
		next := (i + 1) % n
		fmt.Fprintf(&b, "  s%d:\n    description: \"state %d\"\n    relevant_world: [count, out]\n    view: \"Count {{ world.count }} at %d\"\n", i, i, i)
		b.WriteString("    on_enter:\n")
		b.WriteString("      - set: {out: \"{{ world.count > 3 ? 'big' : 'small' }}\"}\n")
		b.WriteString("      - increment: {count: 1}\n")
		b.WriteString("      - say: \"{% if world.count %}n={{ world.count }}{% endif %}\"\n")
		b.WriteString("      - invoke: host.run\n        with: {cmd: echo, args: [\"{{ world.out }}\"]}\n        bind: {out: stdout}\n        on_error: s0\n")
		b.WriteString("      - when: \"world.count > 2 && world.out != ''\"\n        emit_intent: next\n")
		fmt.Fprintf(&b, "    on:\n      next:\n        - target: s%d\n          when: \"world.count < 100\"\n        - target: .\n      back: [{target: s0}]\n", next)
	}
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func TestGeneratedStoryIsClean(t *testing.T) {
	dir := genStory(t, 20)
	st, ds := Load(dir, Options{})
	if len(ds) != 0 || len(st.States) != 20 {
		t.Fatalf("%d states\n%s", len(st.States), render(ds))
	}
}

func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{100, 1000, 2000} {
		dir := genStory(b, n)
		b.Run(fmt.Sprintf("generated-%d-states-%d-effects", n, 5*n), func(b *testing.B) {
			b.ReportAllocs()
			start := processCPU()
			for b.Loop() {
				Load(dir, Options{})
			}
			reportCPU(b, start)
		})
	}
	for _, dir := range corpusDirs(b) {
		b.Run("corpus-"+filepath.Base(dir), func(b *testing.B) {
			b.ReportAllocs()
			start := processCPU()
			for b.Loop() {
				Load(dir, Options{})
			}
			reportCPU(b, start)
		})
	}
}
