package plugin

import (
	"errors"
	"fmt"
	"kitsoki/internal/recost"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/refusal"
)

func TestParseProfileOK(t *testing.T) {
	p, err := parseProfile("plugins.yaml", []byte(`version: 1
disable: [transport.mcp_http, agent.fixer]
config:
  redact:
    patterns: ["sk-[A-Za-z0-9]{8,}"]
    env: [MY_TOKEN]
  budget:
    max_cost_usd: 1.5
    max_tokens: 1000
`), recost.NewBudget())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Disable) != 2 || p.Disable[0].ID != "transport.mcp_http" || p.Disable[0].Line != 2 || p.Disable[0].Col != 11 {
		t.Fatalf("disable = %+v", p.Disable)
	}
	if p.Budget.MaxCostUSD != 1.5 || p.Budget.MaxTokens != 1000 || len(p.Redact.Patterns) != 1 || p.Redact.Env[0] != "MY_TOKEN" {
		t.Fatalf("config = %+v %+v", p.Budget, p.Redact)
	}
}

func TestParseProfileErrorsArePositioned(t *testing.T) {
	cases := []struct {
		name, src, want string
		line, col       int
	}{
		{"yaml", "disable: [a\n", "not valid YAML", 1, 0},
		{"unknown key", "version: 1\ndisabel: [x]\n", "top level: unknown key \"disabel\"; did you mean `disable`?", 2, 1},
		{"unknown key, none near", "config:\n  budget: {colour: red}\n", "config.budget: unknown key \"colour\"; expected one of `max_cost_usd`, `max_tokens`", 2, 12},
		{"disable type", "disable: transport.x\n", "must be a list of plugin ids", 1, 10},
		{"bad regex", "config:\n  redact:\n    patterns: [\"(\"]\n", "not a valid regular expression", 3, 16},
		// compiling is the cost: 3,000 such patterns (a 94 KB profile) kept validate busy 41 s at 388 MB
		{"costly regex", "config:\n  redact:\n    patterns: [\"" + strings.Repeat(`[\\p{L}]{1,1000}`, 6) + "\"]\n", "would compile to about", 3, 16},
		{"costly regexes together", "config:\n  redact:\n    patterns: [" + distinctPatterns(`"[a-z]{1,1000}[0-9]{1,1000}%c", `, 25) + "]\n", "more than the 100000 they may together", 3, 16 + 24*31},
		{"bad budget", "config:\n  budget:\n    max_tokens: lots\n", "max_tokens: must be a non-negative integer", 3, 17},
		{"bad env", "config:\n  redact:\n    env: [\"A B\"]\n", "is not an environment variable name", 3, 11},
		{"not mapping", "- a\n", "must be a mapping", 1, 1},
		{"duplicate", "disable: []\ndisable: []\n", `mapping key "disable" already defined at line 1, column 1; the whole plugin profile is refused: keep one of them`, 2, 1},
		{"duplicate in config", "config:\n  budget: {max_cost_usd: 1, max_cost_usd: 2}\n", `mapping key "max_cost_usd" already defined at line 2, column 12; the whole plugin profile is refused: keep one of them`, 2, 29},
		{"duplicate in an anchor", "x: &a {k: 1, k: 2}\n", `mapping key "k" already defined`, 1, 14},
		{"duplicate through an alias key", "&k disable: []\n*k : []\n", `key "disable" is given twice in one mapping through an alias (*k), the first at line 1, column 1`, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseProfile("p.yaml", []byte(c.src), recost.NewBudget())
			var pe *ProfileError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ProfileError", err)
			}
			d := pe.Diagnostics[0]
			if !strings.Contains(d.Message, c.want) || d.Line != c.line || (c.col != 0 && d.Col != c.col) || d.File != "p.yaml" || d.Rule != ruleProfile.ID {
				t.Fatalf("diag = %+v, want %q at %d:%d", d, c.want, c.line, c.col)
			}
		})
	}
}

func TestFindProfileUpward(t *testing.T) {
	root := t.TempDir()
	p := writeFile(t, filepath.Join(root, ProfileDir, ProfileFile), "disable: []\n")
	deep := filepath.Join(root, "a", "b")
	writeFile(t, filepath.Join(deep, "app.yaml"), "app: {id: x}\n")
	if got := FindProfiles(deep); len(got) == 0 || got[0] != p {
		t.Fatalf("FindProfiles = %q, want %q first", got, p)
	}
	if got := FindProfiles(t.TempDir()); len(got) != 0 {
		t.Fatalf("FindProfiles(empty) = %q", got)
	}
}

func TestMissingExplicitProfileFails(t *testing.T) {
	_, err := Assemble(Options{StoryDir: t.TempDir(), ProfilePath: filepath.Join(t.TempDir(), "nope.yaml")})
	var pe *ProfileError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "cannot read the plugin profile") {
		t.Fatalf("err = %v", err)
	}
	if pe.ReadErr == nil || pe.ReadErr.Error() != "no such file or directory" {
		t.Fatalf("ReadErr = %v, want the I/O reason", pe.ReadErr)
	}
	// A malformed profile that was read has no ReadErr.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("- x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Assemble(Options{StoryDir: t.TempDir(), ProfilePath: bad})
	if !errors.As(err, &pe) || pe.ReadErr != nil {
		t.Fatalf("malformed profile: err = %v, ReadErr = %v", err, pe.ReadErr)
	}
}

func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{"", "disable: [a, b]\n", "config:\n  redact:\n    patterns: [x]\n", "version: 1\n", "- x", "config: {budget: {max_cost_usd: 2}}", "disable: [&a x, *a]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parseProfile("f.yaml", b, recost.NewBudget())
		if err == nil && p == nil {
			t.Fatal("nil profile without error")
		}
		var pe *ProfileError
		if err != nil && (!errors.As(err, &pe) || len(pe.Diagnostics) == 0) {
			t.Fatalf("error without diagnostics: %v", err)
		}
	})
}

// FuzzParseManifest: a manifest taken has an entry command and hooks; a
// refusal names the file, on one line, in YAML's terms (no Go type).
func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{"id: a\nhooks: [{point: run/start}]\nentry: {command: x}\n", "id: A\n", "hooks: x", "entry: {timeout_ms: -1}", "entry: {timeout_ms: x}\nhosts: {a: 1}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseManifest("m.yaml", b)
		if err == nil && (m == nil || m.Entry.Command == "" || len(m.Hooks) == 0) {
			t.Fatalf("accepted an incomplete manifest: %+v", m)
		}
		if err != nil {
			refusal.Leads(t, b, err.Error(), "m.yaml")
		}
	})
}

// TestParseProfileFollowsAliases: anchors and aliases are ordinary YAML in
// a profile (they were type errors before the walk followed them).
func TestParseProfileFollowsAliases(t *testing.T) {
	p, err := parseProfile("plugins.yaml", []byte(`version: 1
disable: &ids [agent.fixer, &one transport.mcp_http]
config:
  redact: {env: [&tok MY_TOKEN, *tok]}
  budget: &limits {max_tokens: 10}
`), recost.NewBudget())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Disable) != 2 || p.Disable[1].ID != "transport.mcp_http" || p.Budget.MaxTokens != 10 || len(p.Redact.Env) != 2 || p.Redact.Env[1] != "MY_TOKEN" {
		t.Fatalf("profile = %+v %+v %+v", p.Disable, p.Budget, p.Redact)
	}
	// through the Walker a merge key merges, an alias value reads as its
	// anchor's, and an alias key under config: names the plugin it spells
	// (before: unknown key "<<", a type error, and the anchor's name "b")
	p, err = parseProfile("plugins.yaml", []byte(`version: 1
disable: [&b budget]
config:
  *b : {<<: {max_tokens: &n 7}, max_cost_usd: *n}
`), recost.NewBudget())
	if err != nil {
		t.Fatal(err)
	}
	if p.Budget.MaxTokens != 7 || p.Budget.MaxCostUSD != 7 || len(p.Configured) != 1 || p.Configured[0].ID != "budget" {
		t.Fatalf("profile = %+v %+v", p.Budget, p.Configured)
	}
}

// distinctPatterns is n copies of format, each with its own letter (a
// pattern given twice is compiled, and charged, once).
func distinctPatterns(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, 'A'+i)
	}
	return b.String()
}
