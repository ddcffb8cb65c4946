package trace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestListTracesSkipsDeepTrees: a sessions directory holding a tree past
// MaxSessionsDepth levels lists the traces above it and warns once,
// naming the first directory skipped (shortened) and the limit.
func TestListTracesSkipsDeepTrees(t *testing.T) {
	dir := t.TempDir()
	top := filepath.Join(dir, "top.jsonl")
	deep := filepath.Join(dir, filepath.Join(slices.Repeat([]string{"dd"}, 100)...))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{top, filepath.Join(deep, "low.jsonl")} {
		if err := os.WriteFile(f, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var warns []string
	s, err := OpenSessions(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.List(func(s string) { warns = append(warns, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Path != top {
		t.Fatalf("listed %+v, want only %s", list, top)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "…") || !strings.Contains(warns[0], "more than 64 directories below") || len(warns[0]) > 600 {
		t.Fatalf("warnings %q: want one naming the directory, shortened, and the limit", warns)
	}
}
