package cmd

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command's help has Examples, and every example names a real
// command with flags it really has.
func TestEveryCommandHasRealExamples(t *testing.T) {
	root := newRootFor(io.Discard, io.Discard, nil)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.HasParent() || c.Hidden {
			return
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s: no Examples in its help", c.CommandPath())
			return
		}
		n := 0
		for line := range strings.SplitSeq(c.Example, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "kitsoki ") || strings.Contains(line, " kitsoki ") {
				checkExampleLine(t, c, line)
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no example runs kitsoki", c.CommandPath())
		}
	}
	walk(root)
}

func checkExampleLine(t *testing.T, c *cobra.Command, line string) {
	t.Helper()
	if i := strings.Index(line, "  #"); i >= 0 {
		line = line[:i]
	}
	words := splitWords(line)
	for len(words) > 0 && strings.Contains(words[0], "=") { // VAR=value prefix
		words = words[1:]
	}
	if len(words) == 0 || words[0] != "kitsoki" {
		t.Errorf("%s: example %q does not start with kitsoki", c.CommandPath(), line)
		return
	}
	root := newRootFor(io.Discard, io.Discard, nil)
	target, rest, err := root.Find(words[1:])
	if err != nil || target == nil {
		t.Errorf("%s: example %q: %v", c.CommandPath(), line, err)
		return
	}
	if err := target.ParseFlags(rest); err != nil {
		t.Errorf("%s: example %q: %v", c.CommandPath(), line, err)
	}
}

// splitWords splits a shell-like line on spaces, keeping "double quoted" words.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	in, has := false, false
	for _, r := range s {
		switch {
		case r == '"':
			in, has = !in, true
		case r == ' ' && !in:
			if has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}
