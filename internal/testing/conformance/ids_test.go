package conformance

import "testing"

// A job id reads as one placeholder where a template glued it to lower-case
// text too (gen write -kind flow -jobs -more -extras -seed 854017: world
// s = "<id>j-x*"), and a longer run of capitals stays as it is.
func TestJobIDsGlued(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"01M975K2CN1JHFN0B6JZX5MVJDj-x*": "<job>j-x*",
		"000007E1600000000000000002j-x*": "<job>j-x*",
		"id 01M975K2CN1JHFN0B6JZX5MVJD.": "id <job>.",
		"01M975K2CN1JHFN0B6JZX5MVJDAB x": "01M975K2CN1JHFN0B6JZX5MVJDAB x",
		"x01M975K2CN1JHFN0B6JZX5MVJD":    "x01M975K2CN1JHFN0B6JZX5MVJD",
		"(HEAD detached at e0cf63e)":     "(HEAD detached at <sha>)",
	} {
		if got := NoIDs(in); got != want {
			t.Errorf("NoIDs(%q) = %q, want %q", in, got, want)
		}
	}
}
