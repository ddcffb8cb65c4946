package story

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestKitsokiLibraryLinkOutSaysTheSame: a repository that plants a kitsoki
// checkout's marks in itself (.kitsoki-root, a go.mod of module kitsoki)
// and a stories/NAME link, or the marks themselves as links, leading out
// of the project gets the same diagnostics for an @kitsoki/NAME import
// whether anything lies behind the links or not, so a pull request's
// validate cannot tell which files exist outside, nor what a go.mod
// there says.
func TestKitsokiLibraryLinkOutSaysTheSame(t *testing.T) {
	const app = "app: {id: s}\nroot: a\nstates:\n  a: {terminal: true}\nimports:\n  x: {source: \"@kitsoki/x\", entry: a}\n"
	base := t.TempDir()
	write(t, base, "outside/lib/app.yaml", "app: {id: CANARYlib}\nroot: a\nstates:\n  a: {}\n")
	write(t, base, "outside/marker", "")
	write(t, base, "outside/go.mod", "module kitsoki\n")
	cases := map[string]func(dir, there string){
		"stories link": func(dir, there string) {
			write(t, dir, "s/.kitsoki-root", "")
			symlinkT(t, there+"lib", filepath.Join(dir, "s", "stories", "x"))
		},
		"marker link": func(dir, there string) {
			write(t, dir, "s/stories/x/app.yaml", "app: {id: child}\nroot: a\nstates:\n  a: {terminal: true}\n")
			symlinkT(t, there+"marker", filepath.Join(dir, "s", ".kitsoki-root"))
		},
		"go.mod link": func(dir, there string) {
			write(t, dir, "s/stories/x/app.yaml", "app: {id: child}\nroot: a\nstates:\n  a: {terminal: true}\n")
			symlinkT(t, there+"go.mod", filepath.Join(dir, "s", "go.mod"))
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			var outs [2]string
			for i, there := range []string{filepath.Join(base, "outside") + "/", filepath.Join(base, "absent") + "/"} {
				dir := filepath.Join(t.TempDir(), "repo")
				write(t, dir, ".git/HEAD", "")
				write(t, dir, "s/app.yaml", app)
				plant(dir, there)
				_, ds := Load(filepath.Join(dir, "s"), Options{LookupEnv: func(string) (string, bool) { return "", false }})
				outs[i] = strings.ReplaceAll(render(ds), dir, "REPO")
			}
			if strings.Contains(outs[0], "CANARY") {
				t.Fatalf("a file outside the project is quoted:\n%s", outs[0])
			}
			if outs[0] != outs[1] {
				t.Errorf("the diagnostics tell whether a file outside the project exists:\nthere:\n%s\nabsent:\n%s", outs[0], outs[1])
			}
		})
	}
}
