package cmd

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRegistryNames: each registered name is its command's name, once, so
// a command line naming it builds the command cobra would have found.
func TestRegistryNames(t *testing.T) {
	seen := map[string]bool{}
	for _, sub := range registry {
		if got := sub.new().Name(); got != sub.name {
			t.Errorf("registered as %q, but the command is named %q", sub.name, got)
		}
		if seen[sub.name] {
			t.Errorf("%q registered twice", sub.name)
		}
		seen[sub.name] = true
	}
	if len(seen) < 10 {
		t.Fatalf("only %d commands registered", len(seen))
	}
}

// TestSoleCommandTree: a command line naming a command builds only that
// command's tree, and every command path answers --help and a bad flag
// exactly as the whole tree does.
func TestSoleCommandTree(t *testing.T) {
	if n := len(newRootFor(&bytes.Buffer{}, &bytes.Buffer{}, []string{"validate", "."}).Commands()); n > 2 {
		t.Errorf("validate's tree holds %d commands below the root; want validate and help", n)
	}
	var paths [][]string
	walkCommands(newRootFor(&bytes.Buffer{}, &bytes.Buffer{}, nil), func(c *cobra.Command) {
		if c.HasParent() {
			paths = append(paths, strings.Fields(c.CommandPath())[1:])
		}
	})
	if len(paths) < 20 {
		t.Fatalf("only %d command paths in the tree", len(paths))
	}
	for _, p := range paths {
		for _, extra := range [][]string{{"--help"}, {"--no-such-flag"}} {
			args := append(append([]string{}, p...), extra...)
			whole := execTree(func(out, errw io.Writer) *cobra.Command { return newRootFor(out, errw, nil) }, args)
			sole := execTree(func(out, errw io.Writer) *cobra.Command { return newRootFor(out, errw, args) }, args)
			if whole != sole {
				t.Errorf("kitsoki %s:\nwhole tree: %s\nits own tree: %s", strings.Join(args, " "), whole, sole)
			}
		}
	}
}

func execTree(build func(out, errw io.Writer) *cobra.Command, args []string) string {
	var out, errw bytes.Buffer
	root := build(&out, &errw)
	root.SetArgs(args)
	err := root.Execute()
	return "stdout " + out.String() + "\nstderr " + errw.String() + "\nerr " + errString(err)
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
