package lint

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/story"
)

// benchCheck runs Check over stories loaded once, b.N times.
func benchCheck(b *testing.B, sts []*story.Story, opts story.Options) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, st := range sts {
			if _, ok := Check(st, opts); !ok {
				b.Fatalf("%s: a rule panicked", st.File)
			}
		}
	}
}

// BenchmarkCheckPhased checks a story whose eight phases expand from one
// template running a shell-mode host.run (testdata/bench/phased): the
// expansion serves the phases-expanded pass, the world writes and the
// shell-injection taint.
func BenchmarkCheckPhased(b *testing.B) {
	st, _ := story.Load(filepath.Join("testdata", "bench", "phased"), story.Options{})
	if st == nil {
		b.Fatal("nil story")
	}
	benchCheck(b, []*story.Story{st}, story.Options{})
}

// BenchmarkCheckCorpus checks every story of the shared corpus (each
// app.yaml below it, as validate corpus/... takes them), loaded once.
func BenchmarkCheckCorpus(b *testing.B) {
	root := storytest.Shared(b, "corpus")
	opts := story.Options{Trees: []string{root}}
	var sts []*story.Story
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == story.StoryFile {
			if st, _ := story.Load(p, opts); st != nil {
				sts = append(sts, st)
			}
		}
		return err
	})
	if err != nil || len(sts) < 20 {
		b.Fatalf("%d corpus stories loaded: %v", len(sts), err)
	}
	benchCheck(b, sts, opts)
}

// TestPhasesExpandedOncePerLoad: the phases-expanded pass, the world
// writes (rule world-key) and the shell-injection taint of one load read
// the one expansion the load's sources hold.
func TestPhasesExpandedOncePerLoad(t *testing.T) {
	st, _ := story.Load(filepath.Join("testdata", "bench", "phased"), story.Options{})
	if st == nil {
		t.Fatal("nil story")
	}
	src := &sources{read: st.Source}
	check(st, &yamlnode.Reporter{}, story.Options{}, src)
	if src.taint == nil {
		t.Fatal("the shell-injection taint was not worked out")
	}
	x := src.expansions[st]
	if len(src.expansions) != 1 || x == nil || x.err != nil {
		t.Fatalf("expansions: %d, of the story: %+v", len(src.expansions), x)
	}
	treeWorld(src, st)
	if src.expansions[st] != x || src.expanded(st) != x || src.expandedStory(st) != x.st {
		t.Error("a later ask expanded the story again")
	}
}

// phasedFindings is a story whose phases: graph has n entries of a
// two-state template, each state with a transition to a state that does
// not exist: 2n findings on generated states, each with its
// generated-by note (the shape where the note's cost per finding counts).
func phasedFindings(n int) []byte {
	var y strings.Builder
	y.WriteString(`app: {id: phased-findings}
intents:
  go: {}
phase_templates:
  step:
    parameters:
      label: {type: string, required: true}
      kind: {type: string, default: plain}
    states:
      "{id}_a":
        on:
          go: [{target: "{{ tpl.id }}_nowhere"}]
      "{id}_{kind}_b":
        on:
          go: [{target: "{{ tpl.id }}_gone"}]
phases:
  template: step
  graph:
`)
	for i := range n {
		fmt.Fprintf(&y, "    p%d: {label: L%d}\n", i, i)
	}
	y.WriteString("root: lobby\nstates:\n  lobby:\n    on:\n      go: [{target: p0_a}]\n")
	return []byte(y.String())
}

// BenchmarkCheckPhasedFindings: Check of a story whose 5,000 phases
// entries generate 10,000 states, each with a finding.
func BenchmarkCheckPhasedFindings(b *testing.B) {
	st, _ := story.LoadSource("app.yaml", phasedFindings(5000), story.Options{})
	if st == nil {
		b.Fatal("nil story")
	}
	ds, _ := Check(st, story.Options{})
	if len(ds) != 10_000 {
		b.Fatalf("%d findings, want 10000", len(ds))
	}
	benchCheck(b, []*story.Story{st}, story.Options{})
}

// BenchmarkCheckPhaseKeys: the phases: structure check (checkPhases) of
// 30,000 graph entries of a three-state template with six parameters,
// four with defaults.
func BenchmarkCheckPhaseKeys(b *testing.B) {
	tpl := &story.PhaseTemplate{
		Parameters: map[string]*story.PhaseParam{
			"title": {Default: "t"}, "budget": {Default: 2}, "owner": {Default: "me"}, "kind": {Default: "k"},
			"label": {Required: true}, "extra": {},
		},
		States: []*story.State{{Name: "{id}_executing"}, {Name: "{id}_{kind}_awaiting_reply"}, {Name: "{id}_failed"}},
	}
	ph := &story.Phases{Template: "t", Graph: map[string]*story.PhaseNode{}}
	for i := range 30_000 {
		id := "p" + strconv.Itoa(i)
		ph.Graph[id] = &story.PhaseNode{Params: map[string]any{"label": "L", "title": "T", "budget": i}}
		ph.Order = append(ph.Order, id)
	}
	st := &story.Story{PhaseTemplates: map[string]*story.PhaseTemplate{"t": tpl}, Phases: ph}
	b.ReportAllocs()
	for b.Loop() {
		rep := &yamlnode.Reporter{}
		checkPhases(&checker{st: st, rep: rep})
		if len(rep.Diags) != 0 {
			b.Fatal(rep.Diags)
		}
	}
}

// BenchmarkCheckLongStateName checks a story whose one state has a 100 KB
// name and 2,000 arms: no rule may format the name once per arm unless it
// reports a finding there.
func BenchmarkCheckLongStateName(b *testing.B) {
	name := strings.Repeat("a", 100_000)
	var sb strings.Builder
	sb.WriteString("app: { id: big }\nintents:\n")
	for i := range 2000 {
		fmt.Fprintf(&sb, "  i%d: {}\n", i)
	}
	fmt.Fprintf(&sb, "root: %s\nstates:\n  ? %s\n  :\n    on:\n", name, name)
	for i := range 2000 {
		fmt.Fprintf(&sb, "      i%d: [ { target: . } ]\n", i)
	}
	st, _ := story.LoadSource("app.yaml", []byte(sb.String()), story.Options{})
	if st == nil {
		b.Fatal("nil story")
	}
	benchCheck(b, []*story.Story{st}, story.Options{})
}

// BenchmarkCheckGrammarManyCalls checks a story of 200 grammar: true decide
// calls naming one schema of 10,000 JSON values: the grammar rules compiled
// and walked it once a call (2,000 calls of a 59 KB schema kept validate
// busy 137 s), now once.
func BenchmarkCheckGrammarManyCalls(b *testing.B) {
	dir := b.TempDir()
	enum := make([]string, 9990)
	for i := range enum {
		enum[i] = strconv.Itoa(i)
	}
	storytest.WriteTree(b, dir, map[string]string{
		"app.yaml":       grammarCallsStory(200, "schemas/s.json"),
		"schemas/s.json": `{"type":"object","properties":{"a":{"enum":[` + strings.Join(enum, ",") + `]}}}`,
	})
	st, _ := story.Load(dir, story.Options{})
	if st == nil {
		b.Fatal("nil story")
	}
	benchCheck(b, []*story.Story{st}, story.Options{})
}
