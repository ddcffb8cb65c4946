package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
)

// -h and --help print a mode's usage and write nothing; an operand that
// starts with '-' is refused, never taken for a directory to create.
func TestHelpAndDashOperands(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, args := range [][]string{{"write", "-h"}, {"write", "--help"}, {"write", "-n", "2", "-h"}, {"diff", "-h"}, {"lintscore", "--help"}} {
		var stderr bytes.Buffer
		if err := run(args, &stderr); !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr.String(), "usage: gen "+args[0]) {
			t.Errorf("%q: %v, usage %q", args, err, stderr.String())
		}
	}
	for _, args := range [][]string{{"write", "--", "-h"}, {"write", "-n", "1", "d", "--", "-x"}, {"diff", "--", "-h"}, {"lintscore", "d", "--", "--help"}, {"write", "-bogus", "d"}} {
		if err := run(args, new(bytes.Buffer)); err == nil || errors.Is(err, flag.ErrHelp) {
			t.Errorf("%q: %v, want a refusal", args, err)
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("help and refusals wrote %v", entries)
	}
	// Flags may follow the directory, as before.
	if err := run([]string{"write", "d", "-n", "2", "-kind", "tmpl"}, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir("d"); len(entries) != 2 {
		t.Errorf("write d -n 2 wrote %d stories", len(entries))
	}
}
