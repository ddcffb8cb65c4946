package expr

import (
	"strings"
	"testing"
)

// EvalBoolWithin lowers one evaluation's budgets; PastBudget tells its
// refusal from the guard's own failure, and Eval keeps the run's bounds.
func TestEvalBoolWithinLowersTheBudgets(t *testing.T) {
	for _, c := range []struct {
		src  string
		past bool
	}{
		{`len(string(1..99999)) > 0`, true}, // 588,895 bytes of text, twice the 256 KiB given
		{`len(1..70000) > 0`, true},         // 70,000 range elements, past the 65,536 given
		{`len(string(1..9)) > 0`, false},
		{`len(string(1..9)) > world.s`, false}, // the guard's own failure (int > string)
	} {
		p, err := CompileGuard(c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.EvalBoolWithin(Env{"world": map[string]any{"s": "x"}}, 256<<10, 1<<16)
		if PastBudget(err) != c.past {
			t.Errorf("%s: EvalBoolWithin: %v, want past the budget %v", c.src, err, c.past)
		}
		if _, err := p.EvalBool(Env{"world": map[string]any{"s": "x"}}); PastBudget(err) {
			t.Errorf("%s: EvalBool: %v, want the run's own bounds", c.src, err)
		}
	}
}

// TestRenderWithin: a render within lowered budgets gives what Render
// gives, refuses past the budget (PastBudget), and refuses a zero budget.
func TestRenderWithin(t *testing.T) {
	tm, err := CompileTemplate("[{{ world.n }}] and {{ world.n * 3 }}")
	if err != nil {
		t.Fatal(err)
	}
	env := Env{"world": map[string]any{"n": 2}}
	got, err := tm.RenderWithin(env, JudgeBytes, JudgeElems)
	if want, _ := tm.Render(env); err != nil || got != want || got != "[2] and 6" {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
	big, err := CompileTemplate(`x{{ upper(world.s) }}`)
	if err != nil {
		t.Fatal(err)
	}
	long := Env{"world": map[string]any{"s": strings.Repeat("a", 5000)}}
	if _, err := big.Render(long); err != nil {
		t.Fatalf("the run's budget refused it: %v", err)
	}
	if _, err := big.RenderWithin(long, 1<<10, JudgeElems); !PastBudget(err) {
		t.Fatalf("a 1 KiB budget: got %v, want a budget refusal", err)
	}
	if _, err := tm.RenderWithin(env, 0, JudgeElems); !PastBudget(err) {
		t.Fatalf("a zero budget: got %v", err)
	}
}
