package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// The file built-ins against a process running beside the story (a
// host.local go test, a job, a hook) that swaps a directory on a path's
// way for a symbolic link out of the working directory: the swap is made
// by the handler's checked hook, at the moment between the path's check
// and its use, and must never let a byte be read from or written to the
// directory the link names.

// linkOut makes dir a symbolic link to target: a directory there is moved
// aside first (the swap a process beside the story makes).
func linkOut(t *testing.T, dir, target string) {
	t.Helper()
	if _, err := os.Lstat(dir); err == nil {
		if err := os.Rename(dir, dir+".moved"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, dir); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
}

// swapOnce is a checked hook that swaps dir for a link to target the
// n-th time it runs (1 = the first path checked), and never again.
func swapOnce(t *testing.T, n int, dir, target string) func(string) {
	calls := 0
	return func(string) {
		if calls++; calls == n {
			linkOut(t, dir, target)
		}
	}
}

// snapshot is every file under dir and what it holds.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() { // a link is not followed
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// outsideTree is a directory outside the working directory holding a
// secret in each place a swapped link could lead a built-in.
func outsideTree(t *testing.T) (string, map[string]string) {
	t.Helper()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{
		"bug.md":             "SECRET bug\n",
		"note.md":            "SECRET note\n",
		"clip.mp4":           "SECRET clip",
		"b/bug.md":           "SECRET deeper\n",
		"bugs/T-1.md":        "---\ntitle: SECRET\n---\nSECRET\n",
		"issues/bugs/T-1.md": "---\ntitle: SECRET\n---\nSECRET\n",
	})
	return outside, snapshot(t, outside)
}

// wantUntouched fails when anything under outside changed, and when a
// result or a file in the working directory carries a secret.
func wantUntouched(t *testing.T, outside string, before map[string]string, wd string, res Result) {
	t.Helper()
	after := snapshot(t, outside)
	for p, b := range after {
		if before[p] != b {
			t.Errorf("%s was written outside the working directory: %q", p, b)
		}
	}
	if len(after) != len(before) {
		t.Errorf("files outside: %d, want %d", len(after), len(before))
	}
	if strings.Contains(sprint(res.Data), "SECRET") {
		t.Errorf("the result carries a file outside: %v", res.Data)
	}
	for p, b := range snapshot(t, wd) {
		if strings.Contains(b, "SECRET") {
			t.Errorf("%s holds a copy of a file outside", p)
		}
	}
}

// wantLinkRefused fails unless the call is a domain error saying a
// symbolic link leads out.
func wantLinkRefused(t *testing.T, res Result, err error) {
	t.Helper()
	if err != nil || !strings.Contains(res.Error, "symbolic link") {
		t.Errorf("result %+v (infra error %v), want a domain error naming the symbolic link", res, err)
	}
}

func TestAppendToFileLinkSwappedIn(t *testing.T) {
	for _, c := range []struct {
		name, thread, swap string // swap: the directory swapped, relative to wd
		n                  int
		tree               map[string]string
	}{
		{"new file in a swapped directory", "sub/bug.md", "sub", 1, map[string]string{"sub/keep": "k"}},
		{"existing file in a swapped directory", "sub/bug.md", "sub", 1, map[string]string{"sub/bug.md": "# mine\n"}},
		{"swapped parent of the parent", "a/b/bug.md", "a", 1, map[string]string{"a/b/keep": "k"}},
		{"swapped as the write starts", "sub/bug.md", "sub", 2, map[string]string{"sub/bug.md": "# mine\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd := t.TempDir()
			writeTree(t, wd, c.tree)
			outside, before := outsideTree(t)
			h := appendFileHandler{checked: swapOnce(t, c.n, filepath.Join(wd, c.swap), outside)}
			res, err := call(t, h, Env{WorkDir: wd, Now: fixedClock()}, map[string]any{"thread": c.thread, "body": "hello"})
			wantLinkRefused(t, res, err)
			wantUntouched(t, outside, before, wd, res)
		})
	}
}

// A thread with ".." after a link to a directory (thl/../bug.md, thl ->
// th/d) is walked as the system walks it: th/bug.md is written, and th
// swapped for a link out after the check fails the write.
func TestAppendToFileDotDotLinkSwappedIn(t *testing.T) {
	for n := range 3 { // 0: no swap
		t.Run(fmt.Sprint("swap at ", n), func(t *testing.T) {
			wd := t.TempDir()
			writeTree(t, wd, map[string]string{"th/d/keep": "k", "th/bug.md": "# mine\n"})
			if err := os.Symlink("th/d", filepath.Join(wd, "thl")); err != nil {
				t.Skipf("no symlinks here: %v", err)
			}
			outside, before := outsideTree(t)
			h := appendFileHandler{checked: swapOnce(t, n, filepath.Join(wd, "th"), outside)}
			res, err := call(t, h, Env{WorkDir: wd, Now: fixedClock()}, map[string]any{"thread": "thl/../bug.md", "body": "hello"})
			if n > 0 {
				wantLinkRefused(t, res, err)
			} else if b, _ := os.ReadFile(filepath.Join(wd, "th/bug.md")); err != nil || res.Error != "" || !strings.Contains(string(b), "hello") {
				t.Errorf("result %+v (%v), th/bug.md %q: want the comment in th/bug.md", res, err, b)
			}
			if _, err := os.Lstat(filepath.Join(wd, "bug.md")); err == nil {
				t.Error("bug.md written beside the link, the '..' taken as text")
			}
			wantUntouched(t, outside, before, wd, res)
		})
	}
}

// A link planted before the call is refused by the check, as it was.
func TestAppendToFileLinkPlanted(t *testing.T) {
	wd := t.TempDir()
	outside, before := outsideTree(t)
	linkOut(t, filepath.Join(wd, "sub"), outside)
	res, err := call(t, appendFileHandler{}, Env{WorkDir: wd, Now: fixedClock()}, map[string]any{"thread": "sub/bug.md", "body": "hello"})
	wantLinkRefused(t, res, err)
	wantUntouched(t, outside, before, wd, res)
}

func TestArtifactsDirLinkSwappedIn(t *testing.T) {
	for _, c := range []struct {
		name string
		args map[string]any
		swap string
		n    int
	}{
		{"chunk: the root swapped", map[string]any{"thread": "note", "body": "x", "artifacts_root": "arts"}, "arts", 1},
		{"chunk: the root swapped as the write starts", map[string]any{"thread": "note", "body": "x", "artifacts_root": "arts"}, "arts", 2},
		{"chunk: the root's parent swapped", map[string]any{"thread": "note", "body": "x", "artifacts_root": "top/arts"}, "top", 1},
		{"media: the source's directory swapped", map[string]any{"thread": "clip", "src_path": "media/clip.mp4", "kind": "video", "artifacts_root": "arts"}, "media", 1},
		{"media: the root swapped", map[string]any{"thread": "clip", "src_path": "media/clip.mp4", "kind": "video", "artifacts_root": "arts"}, "arts", 2},
		{"media: the root swapped as the copy starts", map[string]any{"thread": "clip", "src_path": "media/clip.mp4", "kind": "video", "artifacts_root": "arts"}, "arts", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd := t.TempDir()
			writeTree(t, wd, map[string]string{"arts/note.md": "old\n", "top/arts/note.md": "old\n", "media/clip.mp4": "mine"})
			outside, before := outsideTree(t)
			h := artifactsHandler{getenv: noEnv, checked: swapOnce(t, c.n, filepath.Join(wd, c.swap), outside)}
			res, err := call(t, h, Env{WorkDir: wd}, c.args)
			wantLinkRefused(t, res, err)
			wantUntouched(t, outside, before, wd, res)
		})
	}
}

// With $KITSOKI_ARTIFACTS_ROOT (the operator's root, outside the working
// directory) the files are confined to that root.
func TestArtifactsDirOperatorRootLinkSwappedIn(t *testing.T) {
	wd, opRoot := t.TempDir(), t.TempDir()
	storytest.WriteFile(t, filepath.Join(opRoot, "sub", "note.md"), "old\n")
	outside, before := outsideTree(t)
	h := artifactsHandler{
		getenv:  func(k string) string { return map[string]string{"KITSOKI_ARTIFACTS_ROOT": opRoot}[k] },
		checked: swapOnce(t, 1, filepath.Join(opRoot, "sub"), outside),
	}
	res, err := call(t, h, Env{WorkDir: wd}, map[string]any{"thread": "sub/note.md", "body": "x"})
	wantLinkRefused(t, res, err)
	wantUntouched(t, outside, before, wd, res)
}

func TestLocalTicketsLinkSwappedIn(t *testing.T) {
	for _, c := range []struct {
		name string
		args map[string]any
		n    int
		up   bool // issues swapped (the parent's parent), not issues/bugs
	}{
		// get: the id is checked, stat'd, then checked and read; search:
		// issues/bugs checked, listed, then B-9.md and T-1.md checked and read
		{"get, swapped before the read", map[string]any{"op": "get", "id": "T-1"}, 2, false},
		{"comment, swapped before the write", map[string]any{"op": "comment", "id": "T-1", "body": "hi"}, 3, false},
		{"transition, swapped before the write", map[string]any{"op": "transition", "id": "T-1", "to": "done"}, 3, false},
		{"comment by thread, swapped before the write", map[string]any{"op": "comment", "thread": "issues/bugs/T-1.md", "body": "hi"}, 3, false},
		{"search, swapped before the read", map[string]any{"op": "search"}, 3, false},
		{"comment, the parent's parent swapped before the write", map[string]any{"op": "comment", "id": "T-1", "body": "hi"}, 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, env, wd := ticketsEnv(t)
			outside, before := outsideTree(t)
			dir, target := filepath.Join(wd, "issues", "bugs"), filepath.Join(outside, "bugs")
			if c.up { // issues/bugs/T-1.md then leads to outside/bugs/T-1.md
				dir, target = filepath.Join(wd, "issues"), outside
			}
			h.checked = swapOnce(t, c.n, dir, target)
			res, err := call(t, h, env, c.args)
			if c.args["op"] == "search" {
				// a file that cannot be read is left out of a listing
				if err != nil || res.Error != "" || strings.Contains(sprint(res.Data), "SECRET") {
					t.Errorf("search: %+v %v", res, err)
				}
			} else {
				wantLinkRefused(t, res, err)
			}
			wantUntouched(t, outside, before, wd, res)
		})
	}
}

// host.agent.search reads no corpus file through a link out: a file link
// the glob lists is skipped (named in skipped), and a directory link in
// the pattern's literal prefix is not walked.
func TestAgentSearchCorpusLinkOut(t *testing.T) {
	wd := searchCorpus(t)
	outside, _ := outsideTree(t)
	writeTree(t, outside, map[string]string{"sub/leak.md": "SECRET rockets orbit\n"})
	before := snapshot(t, outside)
	mustSymlink(t, filepath.Join(outside, "bug.md"), filepath.Join(wd, "docs", "leak.md"))
	mustSymlink(t, outside, filepath.Join(wd, "docs", "out"))
	env := Env{WorkDir: wd}
	h := newAgentSearch(SearchOptions{Embedder: &bagEmbedder{}})
	for _, corpus := range []string{"docs/*.md", "docs/out/sub/*.md", "**/*.md"} {
		res, err := call(t, h, env, map[string]any{"query": "secret bug rockets orbit", "corpus": corpus})
		if err != nil {
			t.Fatalf("%s: %v", corpus, err)
		}
		if strings.Contains(sprint(res.Data), "SECRET") {
			t.Errorf("%s: the hits carry a file outside: %v", corpus, res.Data)
		}
	}
	wantUntouched(t, outside, before, wd, Result{})
}

// An artifacts_root with ".." after a link is made as written, the ".."
// climbing from the link's target (conformance artifacts-root-dotdot); a
// link out of the working directory on that walk is refused and nothing
// is made outside.
func TestArtifactsDirRootDotDotAfterLink(t *testing.T) {
	wd := t.TempDir()
	writeTree(t, wd, map[string]string{"th/d/keep": ""})
	linkOut(t, filepath.Join(wd, "al"), "th/d")
	h := artifactsHandler{getenv: noEnv}
	res, err := call(t, h, Env{WorkDir: wd}, map[string]any{"thread": "x", "body": "w", "artifacts_root": "al/../r"})
	if err != nil || res.Error != "host.artifacts_dir: open r/x.md: open r/x.md: no such file or directory" {
		t.Errorf("result %+v (infra error %v), want upstream's open error for the cleaned r/x.md", res, err)
	}
	if fi, err := os.Stat(filepath.Join(wd, "th", "r")); err != nil || !fi.IsDir() {
		t.Errorf("th/r, the root as walked: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(wd, "r")); err == nil {
		t.Error("r, the cleaned root, was made")
	}

	outside, before := outsideTree(t)
	linkOut(t, filepath.Join(wd, "out"), filepath.Join(outside, "b"))
	res, err = call(t, h, Env{WorkDir: wd}, map[string]any{"thread": "note", "body": "w", "artifacts_root": "out/../made"})
	wantLinkRefused(t, res, err)
	wantUntouched(t, outside, before, wd, res)
	if _, err := os.Lstat(filepath.Join(outside, "made")); err == nil {
		t.Error("made was made outside the working directory")
	}
}
