package story

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// BenchmarkLarge30kStates loads a 30,000-state story, lean (one effect,
// two transitions a state) and heavy (150,000 effects), and the lean one
// again with the state-by-state parse off (KITSOKI_YAMLSPLIT=0). live-MiB is the
// heap the loaded story holds (after a GC, less the heap before the
// load); validate-maxrss-MiB the peak resident memory of the process
// `kitsoki validate <story>` (built by the benchmark) as the kernel
// counts it (getrusage ru_maxrss of the child): the figure the 100 MiB
// goal is about, which no in-process heap statistic gives; B/op
// everything allocated.
func BenchmarkLarge30kStates(b *testing.B) {
	bin := buildKitsoki(b)
	b.Run("lean", func(b *testing.B) { benchLarge(b, bin, genLeanStory(b, 30000), 30000) })
	b.Run("heavy-5-effects", func(b *testing.B) { benchLarge(b, bin, genStory(b, 30000), 30000) })
	// the same with the state-by-state parse off: what the split saves
	b.Run("lean-split-off", func(b *testing.B) {
		b.Setenv(SplitEnv, "0")
		benchLarge(b, bin, genLeanStory(b, 30000), 30000)
	})
}

// genLeanStory writes n states, each with a description, one say and two
// transitions (the shape of a large generated menu or quiz story).
func genLeanStory(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("app: {id: lean}\nroot: s0\nintents:\n  next: {}\n  back: {}\nstates:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  s%d:\n    description: \"state %d\"\n    on_enter:\n      - say: \"at %d\"\n    on:\n      next: [{target: s%d}]\n      back: [{target: s0}]\n", i, i, i, (i+1)%n)
	}
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func benchLarge(b *testing.B, bin, dir string, states int) {
	b.ReportAllocs()
	var live float64
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		st, ds := Load(dir, Options{})
		if st == nil || len(ds) != 0 || len(st.States) != states {
			n := 0
			if st != nil {
				n = len(st.States)
			}
			b.Fatalf("%d states, want %d; %d diagnostics:\n%s", n, states, len(ds), render(ds))
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		live = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
		runtime.KeepAlive(st)
	}
	b.ReportMetric(live, "live-MiB")
	if bin == "" {
		return
	}
	cmd := exec.Command(bin, "validate", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("kitsoki validate: %v\n%s", err, out)
	}
	if rss, ok := maxRSS(cmd.ProcessState); ok {
		b.ReportMetric(float64(rss)/(1<<20), "validate-maxrss-MiB")
	}
}

// buildKitsoki builds the kitsoki binary into a temporary directory, or
// returns "" (and says why) when the go tool is not at hand.
func buildKitsoki(b *testing.B) string {
	gobin, err := exec.LookPath("go")
	if err != nil {
		b.Logf("no go tool: validate-maxrss-MiB not measured (%v)", err)
		return ""
	}
	bin := filepath.Join(b.TempDir(), "kitsoki")
	if out, err := exec.Command(gobin, "build", "-o", bin, "kitsoki").CombinedOutput(); err != nil {
		b.Fatalf("go build kitsoki: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkIncludeStates loads 30,000 states from ten include: files
// (each state checked against the top-level names merged before it).
func BenchmarkIncludeStates(b *testing.B) {
	dir := b.TempDir()
	for k := range 10 {
		var p strings.Builder
		p.WriteString("states:\n")
		for i := k * 3000; i < (k+1)*3000; i++ {
			fmt.Fprintf(&p, "  s%d:\n    on_enter:\n      - say: \"at %d\"\n    on:\n      next: [{target: s%d}]\n", i, i, (i+1)%30000)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part%d.yaml", k)), []byte(p.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	app := "app: {id: inc}\nroot: s0\nintents:\n  next: {}\ninclude: [\"part*.yaml\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if st, ds := Load(dir, Options{}); st == nil || len(st.States) != 30000 || len(ds) != 0 {
			b.Fatalf("%d diagnostics:\n%s", len(ds), render(ds))
		}
	}
}

// BenchmarkOneLineStoryPastTheNodeLimit loads a one-line story whose list
// of 3,000,000 items passes the tree node limit (yamlnode.MaxTreeNodes):
// B/op is what the refused load allocates: the file is counted before
// any node is built, so no node of it.
func BenchmarkOneLineStoryPastTheNodeLimit(b *testing.B) {
	benchRefusedLoad(b, "{app: {id: big}, root: s0, world: {big: {type: list, default: ["+strings.Repeat("1,", 3_000_000)+"1]}}, states: {s0: {terminal: true}}}\n", "YAML nodes")
}

// benchRefusedLoad loads a story of app.yaml src, refused with one error
// whose message holds want.
func benchRefusedLoad(b *testing.B, src, want string) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ds := Load(dir, Options{}); len(ds) != 1 || !strings.Contains(ds[0].Message, want) {
			b.Fatalf("want one error holding %q:\n%s", want, render(ds))
		}
	}
}

// BenchmarkComplexKeyStoryPastTheNodeLimit loads the same list after one
// complex key, which only yaml.v3 reads: refused where yamlfast stops.
func BenchmarkComplexKeyStoryPastTheNodeLimit(b *testing.B) {
	benchRefusedLoad(b, "? app\n: {id: big}\nroot: s0\nworld: {big: {type: list, default: ["+strings.Repeat("1,", 3_000_000)+"1]}}\nstates: {s0: {terminal: true}}\n", "whole tree")
}
