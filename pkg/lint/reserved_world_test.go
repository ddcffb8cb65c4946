package lint_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/fold"
	"kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// readerStory reads world.<key> in a guard and names it under
// relevant_world without declaring it.
func readerStory(key string) []byte {
	return fmt.Appendf(nil, `app: { id: top, version: 0.1.0 }
intents:
  go: { description: go }
root: s
states:
  s:
    relevant_world: [%[1]s]
    on:
      go: [{ target: t, when: "world.%[1]s == ''" }]
  t: { terminal: true }
`, key)
}

// importerTree writes a top story importing a child ("sub") that declares
// key (a child may not set write_mode_scope: rule state).
func importerTree(t *testing.T, key string) string {
	t.Helper()
	return storytest.TempTree(t, map[string]string{
		"app.yaml": `app: { id: top, version: 0.1.0 }
imports:
  sub: { source: ./child, entry: s, exits: { out: { to: s } } }
root: s
states:
  s: { terminal: true }
`,
		"child/app.yaml": fmt.Sprintf(`app: { id: child, version: 0.1.0 }
world:
  %s: { type: string, default: "" }
intents:
  back: { description: back }
exits:
  out: {}
root: s
states:
  s:
    on:
      back: [{ target: "@exit:out" }]
`, key),
	})
}

// TestReservedWorldAgrees: the engine, the fold and the linter read the one
// list of reserved world keys (story.IsReservedWorld) alike. Each reserved
// key is accepted undeclared by --world k=v and --world-file, passes
// relevant_world and world-key undeclared, and stays bare when a child
// declares it; an ordinary key ("plain") is refused, flagged and prefixed,
// so the test sees each check bite.
func TestReservedWorldAgrees(t *testing.T) {
	keys := slices.DeleteFunc(story.InjectedWorld(), func(k string) bool { return !story.IsReservedWorld(k) })
	if !slices.Equal(keys, []string{"last_error", "host_error", "write_mode_scope", "session_id"}) {
		t.Fatalf("reserved keys %v, want the four of story-format §1.2", keys)
	}
	for _, k := range append(keys, "plain") {
		t.Run(k, func(t *testing.T) {
			reserved := k != "plain"
			if got := story.IsReservedWorld(k); got != reserved {
				t.Fatalf("IsReservedWorld(%q) = %v", k, got)
			}
			_, errKV := engine.InitWorld(nil, nil, []string{k + "=v"})
			_, errFile := engine.InitWorld(nil, &engine.WorldFile{Path: "w.yaml", Values: map[string]any{k: "v"}}, nil)
			if (errKV == nil) != reserved || (errFile == nil) != reserved {
				t.Errorf("--world %s=v: %v; --world-file: %v (reserved %v)", k, errKV, errFile, reserved)
			}

			_, diags := lint.LoadSource("app.yaml", readerStory(k), story.Options{})
			flagged := map[string]bool{}
			for _, d := range diags {
				if d.Severity == diag.Error && d.Rule != "relevant-world" {
					t.Fatalf("unexpected error: %v", d)
				}
				flagged[d.Rule] = true
			}
			for _, rule := range []string{"relevant-world", "world-key"} {
				if flagged[rule] == reserved {
					t.Errorf("rule %s flagged %v, want %v: %v", rule, flagged[rule], !reserved, diags)
				}
			}

			st, diags := lint.Load(filepath.Join(importerTree(t, k), "app.yaml"), story.Options{})
			if len(diags) > 0 {
				t.Fatalf("importer tree: %v", diags)
			}
			f, err := fold.New(st, fold.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, w := range f.Story.World {
				names = append(names, w.Name)
			}
			want := "sub__" + k
			if reserved {
				want = k
			}
			if !slices.Contains(names, want) {
				t.Errorf("folded world keys %v, want %q", names, want)
			}
		})
	}
}

// TestInjectedWorldSummary: rule world-key's summary (validate --list-rules,
// docs/checks.md) names every key story.InjectedWorld lists.
func TestInjectedWorldSummary(t *testing.T) {
	var summary string
	for _, r := range lint.Rules() {
		if r.ID == "world-key" {
			summary = r.Summary
		}
	}
	if summary == "" {
		t.Fatal("no world-key rule")
	}
	_, list, ok := strings.Cut(summary, "not injected by the engine (")
	list, _, _ = strings.Cut(list, ")")
	if !ok || strings.Join(story.InjectedWorld(), ", ") != list {
		t.Errorf("world-key summary lists %q, story.InjectedWorld() is %v", list, story.InjectedWorld())
	}
}
