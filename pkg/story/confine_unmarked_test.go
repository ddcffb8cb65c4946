package story

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A story with no .git or .kitsoki/ above it has its own directory as its
// project root, so a file it names beside that directory is refused: the
// refusal says so and what to do (create .kitsoki/ in the directory that
// holds both, or work inside a git repository), not that the story's
// directory holds a .git it does not. Once .kitsoki/ is there, it loads.
func TestOutsideAnUnmarkedRootSaysHowToMarkOne(t *testing.T) {
	base := t.TempDir()
	if root, marked := ProjectRoot(base); marked {
		t.Skipf("%s holds .git or .kitsoki/: no unmarked directory to test in", root)
	}
	write(t, base, "prompts/p.md", "hello\n")
	dir := filepath.Join(base, "story")
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\nprompts:\n  shared: [../prompts]\nstates:\n  a: {terminal: true}\n")
	_, ds := Load(dir, Options{})
	out := render(ds)
	for _, want := range []string{
		`prompts.shared[0] "../prompts" leaves the project root ` + dir + " (no .git or .kitsoki/ above the story marks a project, so its own directory is the root)",
		"creating .kitsoki/ in it (mkdir DIR/.kitsoki) or working inside a git repository that holds both",
		"[outside-root]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "the nearest directory above the story holding") {
		t.Errorf("the refusal names a marked root there is none of:\n%s", out)
	}
	if err := os.Mkdir(filepath.Join(base, ".kitsoki"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ds := Load(dir, Options{}); strings.Contains(render(ds), "[outside-root]") {
		t.Errorf("with .kitsoki/ made as the refusal says, the story is still refused:\n%s", render(ds))
	}
}

// A root that .git or .kitsoki/ marks keeps its wording.
func TestOutsideAMarkedRootNamesTheMarker(t *testing.T) {
	base := t.TempDir()
	write(t, base, "prompts/p.md", "hello\n")
	dir := filepath.Join(base, "story")
	write(t, dir, ".kitsoki/keep", "")
	write(t, dir, "app.yaml", "app: {id: i}\nroot: a\nprompts:\n  shared: [../prompts]\nstates:\n  a: {terminal: true}\n")
	_, ds := Load(dir, Options{})
	if out := render(ds); !strings.Contains(out, "leaves the project root "+dir+" (the nearest directory above the story holding .git or .kitsoki/)") {
		t.Errorf("the refusal:\n%s", out)
	}
}
