package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Every block the generator draws reads back as the text it was drawn
// from, literal and folded, with a trailing, kept and inner line break: the story says what the draw meant.
func TestBlockRoundTrips(t *testing.T) {
	t.Parallel()
	b := newBlockGen(1)
	for i := range 400 {
		src := []string{"world.n > 2 && world.s == 'a' || not world.b", "Hello {{ world.s }} there", "s1", "x", "  pad", "a\tb", ""}[i%7]
		var blk block
		switch i % 3 {
		case 0:
			blk = b.expr(src)
		case 1:
			blk = b.text(src)
		default:
			blk = block{text: src + b.pick("\n", "", "\n\n"), folded: b.chance(50)}
		}
		// nested in a sequence, as effects and view elements are
		out, err := yaml.Marshal(m{"s": []any{m{"k": blk}}})
		if err != nil {
			t.Fatal(err)
		}
		var back map[string][]map[string]string
		if err := yaml.Unmarshal(out, &back); err != nil {
			t.Errorf("block %q (folded %v) wrote %q, which does not read: %v", blk.text, blk.folded, out, err)
			continue
		}
		if got := back["s"][0]["k"]; got != blk.text {
			t.Errorf("block %q (folded %v) wrote %q, which reads back as %q", blk.text, blk.folded, out, got)
		}
	}
}

// A call's with.agent names a declared agent: -blocks leaves it as it
// is, and draws its other arguments as blocks.
func TestBlocksKeepAgentNames(t *testing.T) {
	t.Parallel()
	b := newBlockGen(3)
	drawn := 0
	for range 200 {
		with := m{"agent": "rev", "prompt": "Why {{ world.s }}?"}
		b.apply(m{"with": with})
		if with["agent"] != "rev" {
			t.Fatalf("with.agent drawn as %#v", with["agent"])
		}
		if _, ok := with["prompt"].(block); ok {
			drawn++
		}
	}
	if drawn == 0 {
		t.Error("no with.prompt drawn as a block")
	}
}

// -blocks writes the strings real stories write as blocks in block
// styles, changes nothing but their line breaks (the story is the one
// the seed writes without it), and the stories load or fail with a
// positioned diagnostic, never Go runtime text, and run their turns.
func TestBlocksStoriesRun(t *testing.T) {
	t.Parallel()
	const n = 20
	flows := func(dir string, n int, seed uint64) error {
		return write(dir, n, seed, genOpts{extras: true, blocks: true})
	}
	dir := writeSeeded(t, flows, n, 7, "000/app.yaml", "002/flows/f.yaml")
	assertDrawn(t, dir, []string{"when: |\n", "when: >-\n", "target: |\n", "target: >-\n", "view: |", "prose: >",
		"say: |", "initial: |", "x: |"})
	tmpl := func(d string, n int, s uint64) error { return writeTmpl(d, n, s, true, false) }
	view := func(d string, n int, s uint64) error { return writeView(d, n, s, true) }
	host := func(d string, n int, s uint64) error { return writeHost(d, n, s, true, false) }
	for _, kind := range []func(string, int, uint64) error{tmpl, view, host} {
		assertDrawnWithin(t, kind, 7, 10, ": |", ": >")
	}
	plain := t.TempDir()
	if err := write(plain, n, 7, genOpts{extras: true}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for _, f := range []string{"app.yaml", filepath.Join("flows", "f.yaml")} {
			a, b := readSquashed(t, filepath.Join(plain, fmt.Sprintf("%03d", i), f)), readSquashed(t, filepath.Join(dir, fmt.Sprintf("%03d", i), f))
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%03d/%s: -blocks changed more than line breaks", i, f)
			}
		}
	}
	files := discoverStories(t, dir, n)
	if len(files) < n/2 {
		t.Errorf("only %d of %d stories load", len(files), n)
	}
	runClean(t, files, len(files))
}

// readSquashed reads a YAML file with every string's line breaks and
// surrounding blanks squashed to single spaces.
func readSquashed(t *testing.T, p string) any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	var squash func(any) any
	squash = func(v any) any {
		switch x := v.(type) {
		case string:
			return strings.Join(strings.Fields(x), " ")
		case m:
			for k, e := range x {
				x[k] = squash(e)
			}
		case []any:
			for i, e := range x {
				x[i] = squash(e)
			}
		}
		return v
	}
	return squash(v)
}
