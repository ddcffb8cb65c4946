package expr

import "testing"

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
