package validate

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/story"
)

func touch(t *testing.T, p string) {
	t.Helper()
	storytest.WriteFile(t, p, "app: {id: x}\n")
}

func TestExpandForms(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "a", "app.yaml"))
	touch(t, filepath.Join(dir, "b", "c", "app.yaml"))
	touch(t, filepath.Join(dir, ".hidden", "app.yaml"))
	touch(t, filepath.Join(dir, "other.yaml"))

	got, err := Expand([]string{dir + "/..."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a", "app.yaml"), filepath.Join(dir, "b", "c", "app.yaml")}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("got %v want %v", got, want)
	}

	got, err = Expand([]string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "app.yaml"), filepath.Join(dir, "other.yaml")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("dedup failed: %v", got)
	}
}

func TestExpandErrors(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "file"))
	for _, tc := range []struct{ arg, want string }{
		{filepath.Join(dir, "missing"), dir + "/missing: no such file or directory"},
		{dir, "not a story directory (no app.yaml); use " + dir + "/... to search below it"},
		{dir + "/...", "no app.yaml found below"},
		{"-", "a story read from standard input is checked alone"},
	} {
		_, err := Expand([]string{tc.arg}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.arg, err, tc.want)
		}
	}
	// each message whole: the argument, what is wrong, where
	sub := filepath.Join(dir, "empty")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ arg, want string }{
		{filepath.Join(dir, "missing"), filepath.Join(dir, "missing") + ": no such file or directory; give a story directory, its app.yaml or DIR/... (every story below DIR)"},
		{sub + "/...", sub + "/...: no app.yaml found below " + sub},
		{filepath.Join(dir, "missing") + "/...", filepath.Join(dir, "missing") + ": no such file or directory; give the directory to search below, as DIR/..."},
		{filepath.Join(dir, "file", "x"), filepath.Join(dir, "file", "x") + ": not a directory"},
		// a typo of a sibling is named, spelled as the argument was
		{filepath.Join(dir, "emtpy"), filepath.Join(dir, "emtpy") + ": no such file or directory; did you mean `" + sub + "`?"},
		{filepath.Join(dir, "emtpy") + "/...", filepath.Join(dir, "emtpy") + ": no such file or directory; did you mean `" + sub + "/...`?"},
	} {
		if _, err := Expand([]string{tc.arg}, nil); err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.arg, err, tc.want)
		}
	}
}

// Trees keeps the roots of the DIR/... arguments, as named (a bare ...
// is the current directory), and nothing of the other arguments.
func TestTrees(t *testing.T) {
	got := Trees([]string{"a/...", "b", "b/app.yaml", "...", "c/d/...", "x..."})
	if want := []string{"a", ".", "c/d"}; !slices.Equal(got, want) {
		t.Fatalf("Trees = %q, want %q", got, want)
	}
	if got := Trees(nil); got != nil {
		t.Fatalf("Trees(nil) = %q", got)
	}
}

// A bare ... walks the current directory.
func TestExpandBareDots(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "s", "app.yaml"))
	t.Chdir(dir)
	got, err := Expand([]string{"..."}, nil)
	if err != nil || !slices.Equal(got, []string{filepath.Join("s", "app.yaml")}) {
		t.Fatalf("got %v %v", got, err)
	}
}

func TestExpandDefaultsToCurrentDir(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "app.yaml"))
	t.Chdir(dir)
	got, err := Expand(nil, nil)
	if err != nil || len(got) != 1 || got[0] != "app.yaml" {
		t.Fatalf("got %v %v", got, err)
	}
}

// walk finds what filepath.WalkDir finds (hidden directories and
// node_modules skipped, symlinked directories not followed, name order),
// whether it lists through a memo or not, and the error for an unreadable
// root reads the same.
func TestWalkAgreesWithWalkDir(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/app.yaml", "a/sub/app.yaml", "b/c/app.yaml", ".hidden/app.yaml", "node_modules/x/app.yaml", "a/.git/app.yaml", "app.yaml", "z/notes.md"} {
		touch(t, filepath.Join(dir, f))
	}
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	var want []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == StoryFile {
			want = append(want, p)
		}
		return nil
	})
	if got, err := walk(dir, nil); err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %v %v, want %v", got, err, want)
	}
	if _, err := walk(filepath.Join(dir, "missing"), nil); err == nil || err.Error() != filepath.Join(dir, "missing")+": no such file or directory; give the directory to search below, as DIR/..." {
		t.Fatalf("missing root: %v", err)
	}
}

// A story's sibling tree is the folder holding its folder; a story one
// level below the filesystem's root has none.
func TestSiblingTrees(t *testing.T) {
	dir := t.TempDir()
	got := SiblingTrees([]string{filepath.Join(dir, "frontier_event", "app.yaml"), string(filepath.Separator) + "app.yaml", filepath.Join(string(filepath.Separator)+"x", "app.yaml")})
	if len(got) != 1 || got[0] != dir {
		t.Fatalf("SiblingTrees = %q, want [%q]", got, dir)
	}
}

// A walk that skips nothing warns nothing, even with a warn to call.
func TestExpandShallowTreeWarnsNothing(t *testing.T) {
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "a", "app.yaml"))
	var warns []string
	if _, err := Expand([]string{dir + "/..."}, func(s string) { warns = append(warns, s) }); err != nil || len(warns) != 0 {
		t.Fatalf("err %v, warnings %q", err, warns)
	}
}

// The depth warning names the first directory skipped and counts the
// others, whole.
func TestSkippedDeepMessage(t *testing.T) {
	const tail = ": more than 64 directories below r, or a path too long to open; no story there was checked (name one by its own path)"
	if got, want := skippedDeep("r", []string{"r/a"}), "r/...: skipped r/a"+tail; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := skippedDeep("r", []string{"r/a", "r/b", "r/c"}), "r/...: skipped r/a and 2 more"+tail; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// SARIF URIs are relative to the nearest directory holding .git at or
// above the working directory, else to the working directory.
func TestRepoRoot(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "repo", "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "plain"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "repo", "sub", "deeper"))
	if got := RepoRoot(); got != filepath.Join(dir, "repo") {
		t.Errorf("below a repository: RepoRoot = %q, want %q", got, filepath.Join(dir, "repo"))
	}
	t.Chdir(filepath.Join(dir, "plain"))
	if _, found := story.GitRoot(dir); found {
		t.Skipf("%s lies inside a repository", dir)
	}
	if got := RepoRoot(); got != filepath.Join(dir, "plain") {
		t.Errorf("outside any repository: RepoRoot = %q, want %q", got, filepath.Join(dir, "plain"))
	}
}
