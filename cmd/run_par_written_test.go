package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// parRootWriteStory: rb's fire sends pev, which ra takes through the
// parallel root's own arm targeting p (conformance par-emit-root-write).
const parRootWriteStory = `app: {id: rootwrite, version: 0.1.0}
intents: {enter: {}, fire: {}, pev: {}, mra: {}, mrb: {}, kra: {}}
root: s0
states:
  s0: {on: {enter: [{target: p}]}}
  p:
    type: parallel
    on: {pev: [{target: p}]}
    states:
      ra:
        type: compound
        initial: x1
        states:
          x1: {on: {mra: [{target: ../x2}]}}
          x2: {on: {kra: [{target: ../x1}]}}
      rb:
        type: compound
        initial: x1
        states:
          x1: {on: {fire: [{target: ../x2, effects: [{emit: pev}]}], mrb: [{target: ../x2}]}}
          x2: {}
`

// A run resting on the path a receiver's root write left lists what the
// next turn reads back takes (the entry p#p.ra.x1 allows x1's intents, rb
// rests on x2: upstream's flow rig lists fire, mra, mrb, pev there), and
// a run going on from there reads the path back as a flow does
// (par-emit-root-next: mrb fails GUARD_FAILED, rb being on x2; pev
// re-enters p).
func TestRunRestsOnRootWrite(t *testing.T) {
	dir := writeStory(t, parRootWriteStory)
	code, _, stderr := runCmd(t, "run", dir, "--intent", "enter", "--intent", "fire", "--trace", filepath.Join(dir, "a.jsonl"))
	const written = `p#p#p.ra.x1|p.rb.x1|p.rb.x2`
	if code != exitFinding || !strings.Contains(stderr, `rested in state "`+written+`"`) || !strings.Contains(stderr, "it handles: fire, mra, mrb, pev)") {
		t.Fatalf("exit %d, stderr %s: want a rest on %s handling fire, mra, mrb, pev", code, stderr, written)
	}
	code, stdout, stderr := runCmd(t, "run", dir, "--intent", "enter", "--intent", "fire", "--intent", "mrb", "--json", "--trace", filepath.Join(dir, "b.jsonl"))
	if code != exitFinding || !strings.Contains(stdout, `"outcome": "failed"`) || !strings.Contains(stdout, `no transition matched for intent \"mrb\"`) {
		t.Fatalf("exit %d, stdout %s, stderr %s: want mrb to fail its guards", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(t, "run", dir, "--intent", "enter", "--intent", "fire", "--intent", "pev", "--json", "--trace", filepath.Join(dir, "c.jsonl"))
	if code != exitFinding || !strings.Contains(stdout, `"state": "p#p.ra.x1|p.rb.x1"`) {
		t.Fatalf("exit %d, stdout %s, stderr %s: want a rest on p#p.ra.x1|p.rb.x1", code, stdout, stderr)
	}
}
