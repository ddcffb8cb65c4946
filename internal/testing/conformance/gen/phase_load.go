package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// existingLoadErr is the existing engine's load failure: `kitsoki test
	// flows: load app "<path>": <file>: <message>`.
	existingLoadErr = regexp.MustCompile(`load app "[^"]*": (?:[^ :]+\.yaml(?::\d+:\d+)?: )?(.*)`)
	// oursLoadErr is one of kitsoki's diagnostics: `<file>:L:C: error:
	// <message> [<check>]`.
	oursLoadErr = regexp.MustCompile(`(?m)^\S*: error: (.*?)(?: \[[a-z_-]+\])?$`)
)

// loadErrDiff compares the load error each engine logged for a story
// neither could run (existing.log, ours.log), by message: both is false
// when either log holds no load error; msg is empty when the existing
// engine's message is one of ours (ours may add a hint after it: " (…)").
func loadErrDiff(d string) (msg string, both bool) {
	ex, err1 := os.ReadFile(filepath.Join(d, "existing.log"))
	ours, err2 := os.ReadFile(filepath.Join(d, "ours.log"))
	if err1 != nil || err2 != nil {
		return "", false
	}
	em := existingLoadErr.FindStringSubmatch(string(ex))
	oms := oursLoadErr.FindAllStringSubmatch(string(ours), -1)
	if em == nil || len(oms) == 0 {
		return "", false
	}
	want := strings.TrimSpace(em[1])
	var got []string
	for _, om := range oms {
		if got := strings.TrimSpace(om[1]); got == want || strings.HasPrefix(got, want+" (") {
			return "", true
		}
		got = append(got, om[1])
	}
	return "load error " + strings.Join(got, "; ") + ", existing " + want, true
}

// declaresPhases reports whether the story in d builds states from
// phase_templates: (the phase kind's stories), whose load errors compare
// by text.
func declaresPhases(d string) bool {
	b, err := os.ReadFile(filepath.Join(d, "app.yaml"))
	return err == nil && bytes.Contains(b, []byte("\nphase_templates:"))
}
