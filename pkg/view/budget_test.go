package view

import (
	"errors"
	"strings"
	"testing"

	"kitsoki/pkg/story"
	"kitsoki/pkg/story/expr"
)

// TestViewSharesOneRenderBudget: each template of a view used to get a
// render budget of its own, so forty elements of 1 MB each built a 40 MB
// view (and two hundred took ten seconds and died out of memory) from a
// story of a few kilobytes. The elements of one view now spend one
// budget: past MaxRenderBytes in all, the view fails naming the limit;
// each new view starts a fresh budget.
func TestViewSharesOneRenderBudget(t *testing.T) {
	big := `{% for i in "x"|ljust:500000 %}ab{% endfor %}`
	els := make([]*story.ViewElement, 40)
	for i := range els {
		els[i] = &story.ViewElement{Kind: "code", Text: big}
	}
	st := &story.Story{Dir: t.TempDir(), States: []*story.State{
		{Name: "many", Path: "many", View: &story.View{Kind: "elements", Elements: els}},
		{Name: "one", Path: "one", View: &story.View{Kind: "elements", Elements: els[:1]}},
	}}
	r := newRenderer(st)
	out, err := r.RenderView("many", nil, nil)
	if !errors.Is(err, expr.ErrRenderBudget) || len(out) != 0 {
		t.Fatalf("RenderView(many) = %d bytes, %v; want the render budget's error", len(out), err)
	}
	for range 3 { // a fresh budget each time
		if out := render(t, r, "one", nil); len(out) != 1_000_000 || strings.Trim(out, "ab") != "" {
			t.Fatalf("RenderView(one) = %d bytes", len(out))
		}
	}
	tv := map[string]any{transitionViewKey: &story.View{Kind: "elements", Elements: els}}
	if _, err := r.RenderView("many", nil, tv); !errors.Is(err, expr.ErrRenderBudget) {
		t.Errorf("RenderView with a transition view = %v, want the render budget's error", err)
	}
}
