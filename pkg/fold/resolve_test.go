package fold

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storyload"
	"kitsoki/pkg/story"
)

// resolveFrom applies the run-time target rule (story-runtime §6.2): a ..
// chain pops segments off from, anything else is absolute.
func resolveFrom(from, target string) string {
	if !strings.HasPrefix(target, "..") {
		return strings.ReplaceAll(target, "/", ".")
	}
	segs := strings.Split(from, ".")
	rest := target
	for strings.HasPrefix(rest, "../") {
		segs = segs[:len(segs)-1]
		rest = rest[3:]
	}
	return strings.Join(append(segs, rest), ".")
}

// TestRewrittenTargetsLandInTheChild resolves every arc, on_error,
// on_complete and timeout target of the folded trees the way the engine
// does and checks each lands on a folded state (the nested testdata's
// dotted child target, kept as written, names its folded path).
func TestRewrittenTargetsLandInTheChild(t *testing.T) {
	for _, dir := range []string{filepath.Join(corpusDir(t), "imports_smoke/parent"), filepath.Join(corpusDir(t), "frontier_event"), "testdata/nested/top", "testdata/overrides/parent"} {
		f := mustFold(t, storyload.Load(t, dir, story.Options{}))
		n := 0
		check := func(owner *story.State, what, target string) {
			if target == "" || target == "." || story.IsTemplated(target) || strings.HasPrefix(target, "@exit:") {
				return
			}
			n++
			if got := resolveFrom(owner.Path, target); stateAt(f, got) == nil {
				t.Errorf("%s: %s %s: %q resolves to %q, not a folded state", dir, owner.Path, what, target, got)
			}
		}
		var walk func(s *story.State, list []*story.Effect)
		walk = func(s *story.State, list []*story.Effect) {
			for _, e := range list {
				check(s, "on_error", e.OnError())
				check(s, "target", e.Target())
				walk(s, e.OnComplete())
			}
		}
		for _, s := range f.Story.AllStates() {
			walk(s, s.OnEnter)
			if s.Timeout() != nil {
				check(s, "timeout", s.Timeout().Target)
			}
			for _, on := range s.On {
				in := on.Intent
				for _, tr := range on.Arms {
					check(s, "on."+in, tr.Target)
					walk(s, tr.Effects)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no target checked", dir)
		}
	}
}
