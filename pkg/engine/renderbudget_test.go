package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kitsoki/pkg/story/expr"
)

// loop600k renders nothing in 600,000 loop steps: one fits a render's
// budget (expr.MaxRenderSteps), two do not.
const loop600k = `"{% for i in 'x'|ljust:600000 %}{% endfor %}"`

// TestTurnSharesOneRenderBudget: the renders of one turn (says, set
// values, its view) spend one budget, so two templates that each fit
// fail the turn together with the budget's error; the next turn has a
// budget of its own.
func TestTurnSharesOneRenderBudget(t *testing.T) {
	m := compileSource(t, "budget.yaml", `app: {id: budget}
world:
  s: {type: string, default: "`+strings.Repeat("x", 5<<20)+`"}
  n: {type: int, default: 0}
intents:
  one: {}
  says: {}
  sets: {}
  view: {}
root: a
states:
  a:
    on:
      one: [{target: a, effects: [{say: `+loop600k+`}]}]
      says: [{target: a, effects: [{say: `+loop600k+`}, {say: `+loop600k+`}]}]
      sets: [{target: a, effects: [{set: {n: 1}}, {set: {t: "{{ world.s }}{{ world.s }}"}}, {set: {t: "{{ world.s }}{{ world.s }}"}}]}]
      view: [{target: v, effects: [{say: `+loop600k+`}]}]
  v:
    view: `+loop600k+`
`, CompileOptions{})
	s, err := Start(t.Context(), m, SessionOptions{StartState: "a", Clock: NewVirtualClock(time.Unix(0, 0))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fire := func(intent string) *Turn {
		t.Helper()
		turn, err := s.Fire(t.Context(), Input{Intent: intent})
		if err != nil {
			t.Fatalf("%s: %v", intent, err)
		}
		return turn
	}
	for range 3 { // each turn has a budget of its own
		if turn := fire("one"); turn.Err != nil {
			t.Fatalf("one say per turn: %v", turn.Err)
		}
	}
	for _, intent := range []string{"says", "sets"} {
		turn := fire(intent)
		if !errors.Is(turn.Err, expr.ErrRenderBudget) || !strings.Contains(turn.Err.Error(), "a turn or a view") {
			t.Fatalf("%s: turn error %v, want the turn's render budget", intent, turn.Err)
		}
		if w := s.World(); w["n"] != uint64(0) { // the default, a YAML whole number
			t.Fatalf("%s: the failed turn kept n = %v", intent, w["n"])
		}
	}
	// a say and the view it lands on: the view (rendered as pkg/view
	// does, under a budget of its own made with expr.WithSharedBudget)
	// joins the turn's budget, fails, and is noted
	var notes []Note
	loop, err := expr.CompilePongo(strings.Trim(loop600k, `"`))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Start(t.Context(), m, SessionOptions{StartState: "a", Clock: NewVirtualClock(time.Unix(0, 0)),
		Views:   budgetViews{loop},
		Options: Options{Notes: func(n Note) { notes = append(notes, n) }}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if turn, err := s2.Fire(t.Context(), Input{Intent: "view"}); err != nil || turn.Err != nil || turn.State != "v" {
		t.Fatalf("view turn: %v %+v", err, turn)
	}
	found := false
	for _, n := range notes {
		found = found || (n.Kind == "view" && strings.Contains(n.Error, "render budget exceeded"))
	}
	if !found {
		t.Fatalf("the view over the turn's budget was not noted: %+v", notes)
	}
}

// budgetViews renders every view as p, under a view budget as pkg/view's
// renderer makes one.
type budgetViews struct{ p *expr.Pongo }

func (v budgetViews) RenderView(_ string, _ map[string]any, extra map[string]any) (string, error) {
	ctx, _ := extra[expr.ContextKey].(context.Context)
	if ctx == nil {
		ctx = context.Background()
	}
	return v.p.RenderContext(expr.WithSharedBudget(ctx), nil)
}
