package mcpserve

import (
	"strings"
	"testing"
)

func TestToolNames(t *testing.T) {
	cases := []struct{ alias, verb, want string }{
		{"agent.claude", "decide", "kitsoki_agent_claude_decide"},
		{"agent.Fix-Bot", "ask", "kitsoki_agent_fix_bot_ask"},
		{"agent.ünï", "task", "kitsoki_agent__n__task"},
	}
	for _, c := range cases {
		got, err := toolName(c.alias, c.verb)
		if err != nil || got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, %v; want %q", c.alias, c.verb, got, err, c.want)
		}
	}
	long1 := "agent." + strings.Repeat("very_long_alias_", 6) + "one"
	long2 := "agent." + strings.Repeat("very_long_alias_", 6) + "two"
	n1, err1 := toolName(long1, "converse")
	n2, err2 := toolName(long2, "converse")
	again, _ := toolName(long1, "converse")
	if err1 != nil || err2 != nil || len(n1) != maxToolName || len(n2) != maxToolName || n1 == n2 || n1 != again {
		t.Fatalf("long names: %q (%d) %q (%d) %v %v", n1, len(n1), n2, len(n2), err1, err2)
	}
	if !strings.HasPrefix(n1, "kitsoki_agent_very_long_alias_") || !strings.HasSuffix(n1, "_converse") {
		t.Fatalf("long name shape: %q", n1)
	}
	if _, err := toolName("agent.x", "Bad-Verb"); err == nil {
		t.Fatal("invalid verb accepted")
	}
	if _, err := toolName("...", "ask"); err == nil {
		t.Fatal("alias without letters accepted")
	}
}

func TestCollidingAliasesRejectedAtStart(t *testing.T) {
	_, dir := writeStory(t, storyYAML("http://127.0.0.1:1/mcp", "agent.re-mote", "agent.re_mote"))
	_, err := New(Options{StoryPath: dir})
	if err == nil || !strings.Contains(err.Error(), "tool name kitsoki_agent_re_mote_ask is claimed by both agent.re-mote (ask) and agent.re_mote (ask)") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzToolName(f *testing.F) {
	for _, s := range []string{"agent.claude", "agent." + strings.Repeat("x", 100), "", "agent.ß-🙂"} {
		f.Add(s, "ask")
	}
	f.Fuzz(func(t *testing.T, alias, verb string) {
		n, err := toolName(alias, verb)
		if err != nil {
			return
		}
		if len(n) > maxToolName || !strings.HasPrefix(n, "kitsoki_") {
			t.Fatalf("ToolName(%q, %q) = %q", alias, verb, n)
		}
		for _, r := range n {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
				t.Fatalf("ToolName(%q, %q) = %q holds %q", alias, verb, n, r)
			}
		}
	})
}
