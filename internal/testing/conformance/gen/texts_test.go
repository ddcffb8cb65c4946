package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/flowtest"
)

// -text wide and -coalesce unspaced draw what they promise: carriage
// returns, conjuncts, Unicode 16/17 wide runes written as literal UTF-8
// (never yaml.v3's \U escape), U+FE0F, escape sequences and `??` without
// spaces; the stories still load and run on our engine.
//
// n is per kind: a view story holds many texts, so each promised value is
// drawn in a good share of view stories and a dozen stories all lacking
// one is unlikely; the other kinds write few texts a story and draw some
// values only now and then, so they keep the larger batch.
func TestWideTextStoriesRun(t *testing.T) {
	t.Parallel()
	wide := textOpts{wide: true, unspaced: true}
	for _, k := range []struct {
		kind  string
		n     int
		write func(string, int, uint64) error
		want  []string
	}{
		{"view", 12, func(d string, n int, s uint64) error { return writeViewText(d, n, s, false, wide) }, []string{`\r`, "\U0001FAC8", "क्षि", `\e[31m`, "\ufe0f", "??\"d\"", "\t??\t"}},
		{"tmpl", 30, func(d string, n int, s uint64) error { return writeTmplText(d, n, s, false, false, wide) }, []string{`\r`, "क्षि", "??\"d\"", "?? "}},
		{"agent", 30, func(d string, n int, s uint64) error { return writeAgentText(d, n, s, false, wide) }, []string{`\r`, "\U0001FAC8"}},
		{"flow", 30, func(d string, n int, s uint64) error { return write(d, n, s, genOpts{text: wide}) }, []string{`\r`, "क्षि"}},
	} {
		t.Run(k.kind, func(t *testing.T) {
			t.Parallel()
			n := k.n
			dir := writeSeeded(t, k.write, n, 1010000, "000/app.yaml", "001/app.yaml")
			assertDrawn(t, dir, k.want)
			assertNoAstralEscape(t, dir)
			runAll(t, dir, n)
		})
	}
}

// Without the flags none of the new values is drawn: the pools grow only
// when asked, so every seed's stories stay the same bytes. With the flags
// many stories of each kind hold one of these values (view stories all of
// them, template stories the fewest), so a kind whose pools grew unasked
// would show one somewhere in n stories of it.
func TestTextFlagsDrawNothingUnasked(t *testing.T) {
	t.Parallel()
	const n = 15
	dir := t.TempDir()
	if err := writeView(filepath.Join(dir, "v"), n, 1010000, false); err != nil {
		t.Fatal(err)
	}
	if err := writeTmpl(filepath.Join(dir, "t"), n, 1010000, false, true); err != nil {
		t.Fatal(err)
	}
	if err := writeAgent(filepath.Join(dir, "a"), n, 1010000, false); err != nil {
		t.Fatal(err)
	}
	if err := write(filepath.Join(dir, "f"), n, 1010000, genOpts{}); err != nil {
		t.Fatal(err)
	}
	all := readTree(t, dir)
	for _, w := range []string{`\r`, "क्षि", "\U0001FAC8", `\e[`, "\ufe0f", "??\"", "\t??"} {
		if strings.Contains(all, w) {
			t.Errorf("a plain batch holds %q", w)
		}
	}
}

func TestUnescapeAstral(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`s: "\U0001FAC8 x"`, "s: \"\U0001FAC8 x\""},
		{`s: "a\\U0001FAC8"`, `s: "a\\U0001FAC8"`}, // a backslash, then text
		{`s: "\\\U0001F600"`, "s: \"\\\\\U0001F600\""},
		{`s: "\U0001F60"`, `s: "\U0001F60"`}, // too short: kept
		{`s: "\e[31m\r\n"`, `s: "\e[31m\r\n"`},
		{"plain", "plain"},
	} {
		if got := string(unescapeAstral([]byte(c.in))); got != c.want {
			t.Errorf("unescapeAstral(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// assertNoAstralEscape fails for a file under dir holding yaml.v3's \U
// escape, which upstream's YAML reader drops.
func assertNoAstralEscape(t *testing.T, dir string) {
	t.Helper()
	if strings.Contains(strings.ReplaceAll(readTree(t, dir), `\\`, ""), `\U`) {
		t.Errorf("a story under %s holds a \\U escape", dir)
	}
}

// readTree is every file under dir, each followed by a NUL.
func readTree(t *testing.T, dir string) string {
	t.Helper()
	var all strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		all.Write(b)
		all.WriteByte(0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return all.String()
}

// runAll loads the n stories under dir and runs their fixtures: every
// story loads and no turn shows Go runtime text.
func runAll(t *testing.T, dir string, n int) {
	t.Helper()
	files := discoverStories(t, dir, n)
	if len(files) < n {
		t.Errorf("%d fixture files over %d stories", len(files), n)
	}
	for _, r := range flowtest.NewRunner(flowtest.Options{Jobs: 1}).Run(context.Background(), files) {
		if r.Fatal != nil && goText.MatchString(r.Fatal.Message) {
			t.Errorf("%s: %s", r.Story, r.Fatal.Message)
		}
		if r.Flow == nil {
			continue
		}
		for _, tr := range r.Flow.Turns {
			if strings.Contains(tr.View, "internal error") || goText.MatchString(tr.View) {
				t.Errorf("%s: %s", r.Story, tr.View)
			}
		}
	}
}

// discoverStories is the fixture files of the n stories under dir; a
// load diagnostic in Go runtime text fails t.
func discoverStories(t *testing.T, dir string, n int) []*flowtest.File {
	t.Helper()
	var files []*flowtest.File
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("%03d", i))
		fs, ds, err := flowtest.DiscoverUnder("", nil, []string{filepath.Join(d, "app.yaml")}, filepath.Join(d, "flows", "*.yaml"), false, nil)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for _, dg := range ds {
			if goText.MatchString(dg.Message) {
				t.Errorf("%s: %s", d, dg.Message)
			}
		}
		files = append(files, fs...)
	}
	return files
}
