package cmd

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// TestTestBoundsWhatTurnsKeep: a fixture of 400 turns whose story says
// 16 MB on every other turn (each say within the render budget), and
// one that sets a new 8 MiB world key on each of 107 turns, run by the real
// binary with --sandbox: kitsoki test keeps every turn's events and view
// until the fixture ends, so before the cap they held it all (200 turns
// of the say: 2.3 GB peak RSS; a 1,000-turn fixture over 12 GB). Now the
// fixture fails at the turn that passes the cap, naming it and the fix,
// and the peak stays small.
func TestTestBoundsWhatTurnsKeep(t *testing.T) {
	t.Parallel() // only its own subprocesses and temp dirs
	bin := buildKitsokiUnlessShort(t)
	turns := "test_kind: flow\ninitial_state: a\nturns:\n" + strings.Repeat("  - intent: {name: go}\n", 400)
	var keys, chain strings.Builder
	const states = 120
	for i := range states {
		keys.WriteString("  k" + itoa(i) + ": {type: string, default: \"\"}\n")
	}
	chain.WriteString("  a:\n    on:\n      go: [{target: s0}]\n")
	for i := range states {
		// the first states double a 1 KiB seed to 8 MiB; each later state
		// keeps a new 8 MiB string in a key of its own
		v := `'{{ world.seed + world.seed }}'`
		switch {
		case i > 12:
			v = `'{{ world.k` + itoa(i-1) + ` + "y" }}'`
		case i > 0:
			v = `'{{ world.k` + itoa(i-1) + ` + world.k` + itoa(i-1) + ` }}'`
		}
		chain.WriteString("  s" + itoa(i) + ":\n    on_enter:\n      - set: {k" + itoa(i) + ": " + v + "}\n    on:\n      go: [{target: s" + itoa(min(i+1, states-1)) + "}]\n")
	}
	seed := "  seed: {type: string, default: \"" + strings.Repeat("x", 1<<10) + "\"}\n"
	dir := storytest.TempTree(t, map[string]string{
		"say/app.yaml": "app: {id: say, version: 0.1.0}\nintents:\n  go: {description: go}\nroot: a\nstates:\n" +
			"  a:\n    on:\n      go: [{target: b}]\n  b:\n    on_enter:\n      - say: \"{{ 'x'|ljust:16000000 }}\"\n    on:\n      go: [{target: a}]\n",
		"say/flows/a.yaml": turns,
		"keys/app.yaml": "app: {id: keys, version: 0.1.0}\nworld:\n" + keys.String() + seed +
			"intents:\n  go: {description: go}\nroot: a\nstates:\n" + chain.String(),
		"keys/flows/a.yaml": turns,
	})
	for _, story := range []string{"say", "keys"} {
		cmd := exec.Command(bin, "test", "--sandbox", filepath.Join(dir, story), "--timeout", "2m") // a hang guard
		out, _ := cmd.CombinedOutput()
		text := string(out)
		if strings.Contains(text, "fatal error") || strings.Contains(text, "goroutine ") {
			t.Fatalf("%s: Go runtime failure:\n%.3000s", story, text)
		}
		if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(text, "more than 256 MiB of events and views") || !strings.Contains(text, "split the fixture") {
			t.Fatalf("%s: kitsoki test exit %d:\n%.3000s", story, cmd.ProcessState.ExitCode(), text)
		}
		if rss := maxRSS(cmd.ProcessState); rss > 1<<30 {
			t.Errorf("%s: peak RSS %d bytes", story, rss)
		}
	}
}
