package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// fileSize is the size of the file at path, failing the test when it is missing.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestWriteBudgetAppend: with a 1000-byte budget two appends of 400-byte
// bodies fit and the third is refused, naming the file, the budget and the
// fix, and leaving the file as the second call wrote it; host.artifacts_dir
// draws on the same budget, so a write there is refused too.
func TestWriteBudgetAppend(t *testing.T) {
	wd := t.TempDir()
	env := Env{WorkDir: wd, Now: fixedClock()}
	reg := Builtins(Options{WriteBudget: 1000})
	app, _, _, _ := reg.Lookup(HandlerAppendToFile)
	arts, _, _, _ := reg.Lookup(HandlerArtifactsDir)
	args := map[string]any{"thread": "bugs/b.md", "body": strings.Repeat("x", 400)}
	mustOK(t, app, env, args)
	mustOK(t, app, env, args)
	path := filepath.Join(wd, "bugs", "b.md")
	before := fileSize(t, path)
	res, err := call(t, app, env, args)
	if err != nil {
		t.Fatalf("infra error: %v", err)
	}
	for _, want := range []string{`host.append_to_file: writing "bugs/b.md" would add`, "budget of 1000 bytes", fmtSprint(before) + " bytes already written", "without --sandbox"} {
		if !strings.Contains(res.Error, want) {
			t.Errorf("third append: %q, want it to contain %q", res.Error, want)
		}
	}
	if got := fileSize(t, path); got != before {
		t.Errorf("the refused append changed the file: %d bytes, was %d", got, before)
	}
	wantDomainErr(t, arts, env, map[string]any{"thread": "notes", "body": strings.Repeat("y", 1000-int(before))}, "artifact past the shared budget", `host.artifacts_dir: writing "notes.md" would add`)
	if _, err := os.Stat(filepath.Join(wd, ".artifacts", "notes.md")); !os.IsNotExist(err) {
		t.Errorf("the refused artifact was written: %v", err)
	}
	// A write within what is left still goes through.
	mustOK(t, arts, env, map[string]any{"thread": "small", "body": "z"})
}

// TestWriteBudgetUnderSandboxDefault: the sandbox's default budget lets
// ordinary fixture writes through, and a smaller budget of the caller's is kept.
func TestWriteBudgetUnderSandboxDefault(t *testing.T) {
	if got := SandboxOptions(Options{}).WriteBudget; got != DefaultSandboxWriteBudget {
		t.Errorf("SandboxOptions budget %d, want %d", got, DefaultSandboxWriteBudget)
	}
	if got := SandboxOptions(Options{WriteBudget: 10}).WriteBudget; got != 10 {
		t.Errorf("SandboxOptions kept budget %d, want 10", got)
	}
	if got := SandboxOptions(Options{WriteBudget: 1 << 40}).WriteBudget; got != DefaultSandboxWriteBudget {
		t.Errorf("SandboxOptions let budget %d through, want %d", got, DefaultSandboxWriteBudget)
	}
	wd := t.TempDir()
	env := Env{WorkDir: wd, Now: fixedClock()}
	app, _, _, _ := Builtins(SandboxOptions(Options{})).Lookup(HandlerAppendToFile)
	for range 20 {
		mustOK(t, app, env, map[string]any{"thread": "b.md", "body": strings.Repeat("x", 4096)})
	}
	if got := fileSize(t, filepath.Join(wd, "b.md")); got < 20*4096 {
		t.Errorf("b.md holds %d bytes, want every append", got)
	}
}

// TestWriteBudgetMedia: a media copy is charged its source's size; one
// past the budget is refused before anything is created, one within it
// is copied whole.
func TestWriteBudgetMedia(t *testing.T) {
	wd := t.TempDir()
	storytest.WriteFile(t, filepath.Join(wd, "big.mp4"), strings.Repeat("v", 2000))
	storytest.WriteFile(t, filepath.Join(wd, "small.mp4"), strings.Repeat("v", 500))
	arts, _, _, _ := Builtins(Options{WriteBudget: 1000}).Lookup(HandlerArtifactsDir)
	env := Env{WorkDir: wd}
	wantDomainErr(t, arts, env, map[string]any{"thread": "big", "src_path": "big.mp4", "kind": "video"}, "media past the budget", `host.artifacts_dir: writing "big.mp4" would add 2000 bytes`)
	if _, err := os.Stat(filepath.Join(wd, ".artifacts")); !os.IsNotExist(err) {
		t.Errorf("the refused copy created the artifacts directory: %v", err)
	}
	mustOK(t, arts, env, map[string]any{"thread": "small", "src_path": "small.mp4", "kind": "video"})
	if got := fileSize(t, filepath.Join(wd, ".artifacts", "small.mp4")); got != 500 {
		t.Errorf("copied %d bytes, want 500", got)
	}
}

// TestWriteBudgetOffByDefault: without a budget (outside --sandbox) writes
// are not counted.
func TestWriteBudgetOffByDefault(t *testing.T) {
	wd := t.TempDir()
	app, _, _, _ := Builtins(Options{}).Lookup(HandlerAppendToFile)
	env := Env{WorkDir: wd, Now: fixedClock()}
	for range 3 {
		mustOK(t, app, env, map[string]any{"thread": "b.md", "body": strings.Repeat("x", 1<<20)})
	}
}

// TestAppendOverReadCapNamesFileOnce: a file past the read cap is a domain
// error naming the file once, as the story named it, and the cap, from both
// appending handlers.
func TestAppendOverReadCapNamesFileOnce(t *testing.T) {
	wd := t.TempDir()
	big := strings.Repeat("x", 17<<20)
	storytest.WriteFile(t, filepath.Join(wd, "b.md"), big)
	storytest.WriteFile(t, filepath.Join(wd, ".artifacts", "a.md"), big)
	reg := Builtins(Options{})
	for _, c := range []struct{ handler, thread, path string }{
		{HandlerAppendToFile, "b.md", "read b.md: "},
		{HandlerArtifactsDir, "a", filepath.Join(wd, ".artifacts", "a.md")},
	} {
		h, _, _, _ := reg.Lookup(c.handler)
		res, err := call(t, h, Env{WorkDir: wd, Now: fixedClock()}, map[string]any{"thread": c.thread, "body": "x"})
		if err != nil || strings.Count(res.Error, c.path) != 1 || !strings.Contains(res.Error, "16 MiB cap") {
			t.Errorf("%s over the read cap: %q (infra %v), want a domain error naming %s once and the cap", c.handler, res.Error, err, c.path)
		}
	}
}

// TestWriteBudgetLinkThroughDotDot: a thread that is a link whose target
// climbs ("..") out of a link to a directory is read and written as the
// system resolves it, so each append is charged what it adds to the file
// it read. The write once took the target as written: tN.md leads to
// apl/../bN.md, which the read followed to ap/bN.md and on to ap/big.md,
// while the write went to bN.md beside the link, so each call wrote a new
// copy of the 8 KiB file charged only its comment, and 20 calls within a
// 4 KiB budget put 160 KiB on disk.
func TestWriteBudgetLinkThroughDotDot(t *testing.T) {
	wd := t.TempDir()
	storytest.WriteFile(t, filepath.Join(wd, "ap", "d", ".keep"), "")
	storytest.WriteFile(t, filepath.Join(wd, "ap", "big.md"), "# Big\n"+strings.Repeat("x", 8<<10)+"\n")
	if err := os.Symlink("ap/d", filepath.Join(wd, "apl")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	before := snapshot(t, wd)
	app, _, _, _ := Builtins(Options{WriteBudget: 4 << 10}).Lookup(HandlerAppendToFile)
	env := Env{WorkDir: wd, Now: fixedClock()}
	for i := range 20 {
		link := fmt.Sprintf("t%d.md", i)
		if err := os.Symlink("big.md", filepath.Join(wd, "ap", fmt.Sprintf("b%d.md", i))); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(fmt.Sprintf("apl/../b%d.md", i), filepath.Join(wd, link)); err != nil {
			t.Fatal(err)
		}
		mustOK(t, app, env, map[string]any{"thread": link, "body": "c"})
	}
	var added int
	for p, s := range snapshot(t, wd) {
		added += len(s) - len(before[p])
	}
	if added > 4<<10 {
		t.Errorf("20 appends through links put %d bytes on disk within a 4096-byte budget", added)
	}
	for i := range 20 {
		if _, err := os.Lstat(filepath.Join(wd, fmt.Sprintf("t%d.md", i))); err != nil {
			t.Errorf("link t%d.md: %v", i, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(wd, "ap", "big.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(b), "## Comment"); got != 20 {
		t.Errorf("ap/big.md holds %d comments, want the 20 appended through the links", got)
	}
}
