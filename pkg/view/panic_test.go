package view

import (
	"errors"
	"strings"
	"testing"

	"kitsoki/internal/panicked"
	"kitsoki/pkg/story"
)

// A renderer that panics fails the render with one line in the one panic
// wording (internal/panicked): the stack goes to stderr and stays on the
// error (errors.As a *panicked.Error), out of the message. The
// seam is a Renderer made without New, whose tables are nil: no story is
// known to panic a renderer made by New.
func TestRenderPanicIsOneLine(t *testing.T) {
	r := &Renderer{states: map[string]*story.State{"a": {Path: "a", Name: "a", View: &story.View{Template: "x"}}}}
	out, err := r.RenderView("a", nil, nil)
	ve, ok := errors.AsType[*Error](err)
	if out != "" || !ok || !ve.Internal {
		t.Fatalf("got %q, %v; want an internal *view.Error", out, err)
	}
	want := `view of state "a": view: rendering: the renderer panicked: assignment to entry in nil map (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)`
	if err.Error() != want {
		t.Fatalf("got  %s\nwant %s", err, want)
	}
	pe, ok := errors.AsType[*panicked.Error](err)
	if !ok || !strings.Contains(string(pe.Stack), "RenderView") {
		t.Fatalf("the stack is not on the error: %v", pe)
	}
}
