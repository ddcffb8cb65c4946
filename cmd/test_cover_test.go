package cmd

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// needTool skips a test whose check needs a Debian program that is not
// installed (make test installs it: scripts/test-tools.sh).
func needTool(t *testing.T, prog, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err != nil {
		t.Skipf("%s is not installed (Debian package %s; make test installs it with scripts/test-tools.sh): this check needs it", prog, pkg)
	}
	return p
}

// inCorpus makes the shared corpus the working directory (profile paths
// are relative to it) and returns an output directory.
func inCorpus(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	t.Chdir(storytest.Corpus(t, "."))
	return out
}

func mustRun(t testing.TB, args ...string) (stdout, stderr string) {
	t.Helper()
	code, out, errb := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("kitsoki %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errb)
	}
	return out, errb
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Sharded runs' JSON profiles merge to the profile of one unsharded run,
// byte for byte, in every format; lcov's genhtml accepts the unsharded
// LCOV profile, and the unsharded Cobertura XML parses. The unsharded
// runs take their format from the extension (.json, .info) and from
// --cover-format (cobertura); the merges from the extension.
func TestCoverShardsMergeByteForByte(t *testing.T) {
	out := inCorpus(t)
	for _, ext := range []string{"json", "info", "xml"} {
		args := []string{"test", "./...", "-j", "2", "--coverprofile", filepath.Join(out, "full."+ext)}
		if ext == "xml" {
			args = append(args, "--cover-format", "cobertura")
		}
		mustRun(t, args...)
	}
	t.Run("genhtml", func(t *testing.T) { checkGenhtml(t, filepath.Join(out, "full.info")) })
	t.Run("cobertura", func(t *testing.T) { checkCobertura(t, filepath.Join(out, "full.xml")) })
	var shards []string
	for _, s := range []string{"1/3", "2/3", "3/3"} {
		p := filepath.Join(out, "shard"+s[:1]+".json")
		mustRun(t, "test", "./...", "-j", "2", "--shard", s, "--coverprofile", p)
		shards = append(shards, p)
	}
	if bytes.Equal(readFile(t, shards[0]), readFile(t, shards[1])) {
		t.Fatal("two shards wrote the same profile: the shards did not split the fixtures")
	}
	for _, ext := range []string{"json", "info", "xml"} {
		merged := filepath.Join(out, "merged."+ext)
		_, stderr := mustRun(t, append(append([]string{"test", "merge"}, shards...), "--coverprofile", merged)...)
		if !strings.HasPrefix(stderr, "coverage: ") {
			t.Errorf("merge printed no summary line on stderr: %q", stderr)
		}
		if !bytes.Equal(readFile(t, merged), readFile(t, filepath.Join(out, "full."+ext))) {
			t.Errorf("merged %s profile differs from the unsharded one", ext)
		}
	}
	// with no output named, the merged JSON profile goes to stdout
	stdout, _ := mustRun(t, append([]string{"test", "merge"}, shards...)...)
	if stdout != string(readFile(t, filepath.Join(out, "full.json"))) {
		t.Error("merge to stdout differs from the unsharded JSON profile")
	}
}

// checkGenhtml: lcov's genhtml accepts info, the LCOV profile of the
// corpus, and renders every story file it names.
func checkGenhtml(t *testing.T, info string) {
	genhtml := needTool(t, "genhtml", "lcov")
	html := filepath.Join(filepath.Dir(info), "html")
	cmd := exec.Command(genhtml, "--output-directory", html, info)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("genhtml refused the profile: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(html, "cloak", "app.yaml.gcov.html")); err != nil {
		t.Errorf("genhtml rendered no page for cloak/app.yaml: %v", err)
	}
}

// checkCobertura: the Cobertura XML profile p of the corpus parses
// (encoding/xml, and xmllint where installed) and names the corpus files
// with their line counts.
func checkCobertura(t *testing.T, p string) {
	var doc struct {
		LinesValid int `xml:"lines-valid,attr"`
		Packages   []struct {
			Classes []struct {
				Filename string `xml:"filename,attr"`
				Lines    []struct {
					Number int `xml:"number,attr"`
					Hits   int `xml:"hits,attr"`
				} `xml:"lines>line"`
			} `xml:"classes>class"`
		} `xml:"packages>package"`
	}
	if err := xml.Unmarshal(readFile(t, p), &doc); err != nil {
		t.Fatalf("encoding/xml: %v", err)
	}
	files, lines := map[string]bool{}, 0
	for _, pk := range doc.Packages {
		for _, c := range pk.Classes {
			files[c.Filename] = true
			lines += len(c.Lines)
		}
	}
	if !files["cloak/app.yaml"] || !files["conflict-resolve/rooms/conflict.yaml"] || lines != doc.LinesValid || lines == 0 {
		t.Errorf("classes %v, %d lines (lines-valid %d)", files, lines, doc.LinesValid)
	}
	xmllint := needTool(t, "xmllint", "libxml2-utils")
	if b, err := exec.Command(xmllint, "--noout", "--nonet", p).CombinedOutput(); err != nil {
		t.Errorf("xmllint: %v\n%s", err, b)
	}
}

// --cover prints the summary line after the fixtures, -v lists what was
// never reached at file:line, --coverprofile - writes the profile to
// stdout (and the report to stderr), --cover-html writes the report.
func TestCoverOutputs(t *testing.T) {
	out := inCorpus(t)
	stdout, _ := mustRun(t, "test", "timeout", "--cover")
	if !strings.Contains(stdout, "\ncoverage: 50.0% of arcs (1/2), 100.0% of states (2/2)\n") {
		t.Errorf("no summary line:\n%s", stdout)
	}
	stdout, _ = mustRun(t, "test", "background_jobs", "--cover", "-v")
	if !strings.Contains(stdout, "never reached by a fixture (") || !strings.Contains(stdout, "  background_jobs/app.yaml:90:3: state done\n") {
		t.Errorf("-v lists no unreached state:\n%s", stdout)
	}
	stdout, stderr := mustRun(t, "test", "timeout", "--coverprofile", "-")
	if !strings.HasPrefix(stdout, "{\n  \"kitsoki_coverage\": 1,") || !strings.Contains(stderr, "coverage: ") {
		t.Errorf("--coverprofile -: stdout\n%s\nstderr\n%s", stdout, stderr)
	}
	html := filepath.Join(out, "html")
	mustRun(t, "test", "imports_smoke/parent", "--root", ".", "--cover-html", html)
	idx := string(readFile(t, filepath.Join(html, "index.html")))
	if !strings.Contains(idx, "imports_smoke/sub_story/app.yaml") || !strings.Contains(idx, "sub.processing") {
		t.Errorf("index.html lacks the child file or its state:\n%s", idx)
	}
	// the upstream spelling takes -v too
	stdout, _ = mustRun(t, "test", "flows", "-v", "--cover", "background_jobs/app.yaml")
	if !strings.Contains(stdout, "state done") {
		t.Errorf("test flows -v --cover:\n%s", stdout)
	}
}

// Coverage flags that cannot work are usage errors (exit 2) that say why.
func TestCoverFlagErrors(t *testing.T) {
	out := inCorpus(t)
	lcov := filepath.Join(out, "x.info")
	if err := os.WriteFile(lcov, []byte("TN:\nSF:a.yaml\nDA:1,1\nend_of_record\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "timeout", "--coverprofile", "x.out", "--cover-format", "gcov"}, `--cover-format "gcov": expected lcov, cobertura or json`},
		{[]string{"test", "timeout", "--cover-format", "json"}, "name the profile to write with --coverprofile FILE"},
		{[]string{"test", "timeout", "--coverprofile", filepath.Join(out, "no", "such", "p.json")}, "does not exist; create it first"},
		{[]string{"test", "timeout", "--coverprofile", "-", "--json", "-"}, "both want stdout"},
		{[]string{"test", "merge", lcov}, "LCOV profiles cannot be merged exactly"},
	} {
		code, _, stderr := runCmd(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("kitsoki %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// TestMergeHTMLQuotesNothingOutside: kitsoki test merge reads whatever
// JSON profiles it is given, and its --cover-html pages show each file's
// source. A profile naming a file outside the working directory
// (absolute, "..", or a symlink inside leading out) gets a page saying
// the source is not shown, and no line of that file is in the report;
// a file inside is shown.
func TestMergeHTMLQuotesNothingOutside(t *testing.T) {
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	writeFileT(t, filepath.Join(outside, "secret.yaml"), confineCanary+"\n")
	writeFileT(t, filepath.Join(proj, "app.yaml"), "inside: yes\n")
	symlinkT(t, filepath.Join(outside, "secret.yaml"), filepath.Join(proj, "link.yaml"))
	profile := func(path string) string {
		return `{"kitsoki_coverage": 1, "files": [{"path": ` + strconv.Quote(path) + `, "items": [{"kind":"state","line":1,"col":1,"state":"s","label":"s","count":1}]}]}`
	}
	var args []string
	for i, p := range []string{filepath.Join(outside, "secret.yaml"), "../outside/secret.yaml", "link.yaml", "app.yaml"} {
		f := filepath.Join(proj, fmt.Sprintf("p%d.json", i))
		writeFileT(t, f, profile(p))
		args = append(args, f)
	}
	t.Chdir(proj)
	mustRun(t, append(append([]string{"test", "merge"}, args...), "--cover-html", "html")...)
	pages, _ := filepath.Glob(filepath.Join(proj, "html", "*.html"))
	var all string
	for _, p := range pages {
		all += string(readFile(t, p))
	}
	if strings.Contains(all, confineCanary) {
		t.Errorf("the report quotes the file outside the working directory")
	}
	if n := strings.Count(all, "the source is not shown: it lies outside "+proj); n != 3 || !strings.Contains(all, "inside: yes") {
		t.Errorf("%d pages refuse their source, want 3, and app.yaml shown:\n%s", n, all)
	}
}
