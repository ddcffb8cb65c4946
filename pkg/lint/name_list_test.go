package lint

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// A finding that lists what the story declares lists at most maxListed
// names and counts the rest, so a story naming an unknown agent or
// interface on every line of a file declaring thousands gives output the
// size of the story, not its square.
func TestDeclaredListsCapped(t *testing.T) {
	listedName := regexp.MustCompile(`\b(agent\.a|i|p)\d\d\b`)
	const n = 60
	var b strings.Builder
	b.WriteString("app: {id: m}\nroot: s\nhosts: [host.agent.ask]\nagent_plugins:\n")
	for i := range n {
		fmt.Fprintf(&b, "  agent.a%02d: {plugin: subprocess, command: x}\n", i)
	}
	b.WriteString("agents:\n")
	for i := range n {
		fmt.Fprintf(&b, "  p%02d: {system_prompt: hi}\n", i)
	}
	b.WriteString("host_interfaces:\n")
	for i := range n {
		fmt.Fprintf(&b, "  i%02d: {operations: {op: {}}}\n", i)
	}
	b.WriteString("states:\n  s:\n    on_enter:\n")
	b.WriteString("      - {invoke: host.agent.ask, agent: agent.zz, with: {prompt: hi}}\n")
	b.WriteString("      - {invoke: iface.zz.op}\n")
	b.WriteString("      - {invoke: host.agent.task, with: {agent: zz, prompt: hi}}\n")
	_, ds := LoadSource("m.yaml", []byte(b.String()), story.Options{})
	seen := map[string]bool{}
	for _, d := range ds {
		for _, marker := range []string{"(declared: ", "(known agents: "} {
			if !strings.Contains(d.Message, marker) {
				continue
			}
			seen[marker+d.Rule] = true
			if len(listedName.FindAllString(d.Message, -1)) > maxListed || !strings.Contains(d.Message, "more") {
				t.Errorf("%s: %s\nwant at most %d names and a count of the rest", d.Rule, d.Message, maxListed)
			}
		}
	}
	if len(seen) < 2 {
		t.Fatalf("findings listing declared names: %v; want the agent alias and interface ones at least:\n%v", seen, ds)
	}
}

func TestNameList(t *testing.T) {
	names := make([]string, 25)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	if got := nameList(names[:3], ", "); got != "0, 1, 2" {
		t.Errorf("short list: %q", got)
	}
	if got := nameList(names, " "); !strings.HasSuffix(got, " 19 … and 5 more") || strings.Contains(got, " 20") {
		t.Errorf("long list: %q", got)
	}
}
