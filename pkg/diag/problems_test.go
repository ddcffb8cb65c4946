package diag

import "testing"

type strProblem string

func (s strProblem) String() string { return string(s) }

func TestProblems(t *testing.T) {
	cases := []struct {
		ps   []strProblem
		want string
	}{
		{nil, "story cannot be run (0 problems):"},
		{[]strProblem{"a.yaml:1:2: bad"}, "story cannot be run (1 problem):\n  a.yaml:1:2: bad"},
		{[]strProblem{"x", "y"}, "story cannot be run (2 problems):\n  x\n  y"},
	}
	for _, c := range cases {
		if got := Problems("story cannot be run", c.ps); got != c.want {
			t.Errorf("Problems(%q) = %q, want %q", c.ps, got, c.want)
		}
	}
}
