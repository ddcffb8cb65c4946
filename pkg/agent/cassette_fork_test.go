package agent_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"kitsoki/pkg/agent"
)

// A fork replays from the start on its own: the parent's played episodes
// and match counts are not the fork's, and the fork's are not the
// parent's.
func TestCassetteForkHasItsOwnReplayState(t *testing.T) {
	cas, err := agent.ParseCassette(filepath.Join(t.TempDir(), "c.yaml"), []byte(matchingCassette))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := &agent.AskRequest{Verb: "task", StatePath: "pipeline.fix"}
	if r, err := cas.For("agent.fixer").Ask(ctx, req); err != nil || r.Meta["episode_id"] != "once" {
		t.Fatalf("parent: %v %+v", err, r)
	}
	fork := cas.Fork()
	if got := fork.Remaining(); !slices.Contains(got, "once") {
		t.Fatalf("fork starts with once played: remaining %v", got)
	}
	r, err := fork.For("agent.fixer").Ask(ctx, req)
	if err != nil || r.Meta["episode_id"] != "once" || r.Meta["match_idx"] != 0 {
		t.Fatalf("fork: %v %+v", err, r)
	}
	if _, err := fork.For("agent.fixer").Ask(ctx, req); err == nil {
		t.Fatal("the fork replayed a once episode twice")
	}
	again := cas.Fork()
	if _, err := again.For("agent.fixer").Ask(ctx, req); err != nil {
		t.Fatalf("a second fork: %v", err)
	}
	if slices.Contains(cas.Remaining(), "by_phase") == false {
		t.Fatalf("parent remaining %v", cas.Remaining())
	}
}
