package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A check that panics is one internal diagnostic in the one panic
// wording (internal/panicked), its stack on stderr and out of the message.
// The panicking input is a real one: a checked story whose state list
// holds a nil state, which no loader makes but Check's callers could.
func TestCheckPanicIsOneInternalDiagnostic(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", "app: {id: m}\nroot: a\nstates:\n  a: {terminal: true}\n")
	st, ds := story.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil {
		t.Fatalf("load: %v", ds)
	}
	st.States = append(st.States, nil)
	got, ok := Check(st, story.Options{})
	if ok {
		t.Fatalf("ok after a panic: %v", got)
	}
	var msgs []string
	for _, d := range got {
		if d.Rule == story.RuleInternal.ID {
			msgs = append(msgs, d.Message)
		}
	}
	want := "checking the story: a lint check panicked: runtime error: invalid memory address or nil pointer dereference (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)"
	if len(msgs) != 1 || msgs[0] != want {
		t.Fatalf("internal diagnostics %q, want [%q]", msgs, want)
	}
	if strings.Contains(msgs[0], "goroutine") {
		t.Fatalf("the stack is in the message: %s", msgs[0])
	}
}
