package lint

import (
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	"kitsoki/pkg/story"
)

// An on_error "../" climbs from the state the turn ends in, as the engine
// does (story-runtime.md §2.4): from a compound's on_enter it climbs from
// the initial leaf, from a transition's effects from the destination. The
// reachability rule follows the same resolution.
func TestOnErrorClimbsFromDispatchState(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: lobby
hosts: [host.run]
intents: {go: {}, go2: {}}
states:
  lobby:
    on:
      go: [{target: comp}]
      go2:
        - target: deep.leaf
          effects:
            - {invoke: host.run, on_error: ../err}
  comp:
    type: compound
    initial: inner
    on_enter:
      - {invoke: host.run, on_error: ../err}
    states:
      inner: {}
      err: {}
  deep:
    type: compound
    initial: leaf
    states:
      leaf: {}
      err: {}
  err: {}
`)
	_, ds := Load(dir, story.Options{})
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	// comp.err and deep.err are reached through on_error; the top-level
	// err, which the declaring states would climb to, is not.
	if len(ds) != 1 || ds[0].Rule != ruleUnreachable.ID || !strings.Contains(ds[0].Message, `state "err" is unreachable`) {
		t.Fatalf("want only the top-level err unreachable, got:\n%s", strings.Join(got, "\n"))
	}
}

// An on_error target with whitespace around it names no state on either
// engine (conformance on-error-untrimmed): a warning, at the on_error
// value. A templated one is never rendered (conformance
// on-error-template-literal): a warning of its own; a plain one is not
// reported.
func TestOnErrorUntrimmedWarns(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "app.yaml", `app: {id: oe}
root: a
hosts: [host.run]
intents: {go: {}}
states:
  a:
    on_enter:
      - {invoke: host.run, on_error: " err"}
      - {invoke: host.run, on_error: "{{ 'err' }} "}
      - {invoke: host.run, on_error: err}
    on:
      go: [{target: err}]
  err: {}
`)
	_, ds := Load(dir, story.Options{})
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Rule == ruleOnErrorTarget.ID {
			got = append(got, d)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0].Message, `on_error " err" names no state as written`) || got[0].Line != 8 || got[0].Severity != diag.Warning ||
		!strings.Contains(got[1].Message, `on_error "{{ 'err' }}" is never rendered`) || got[1].Line != 9 || got[1].Severity != diag.Warning {
		t.Fatalf("want on-error-target warnings at lines 8 and 9: %v", ds)
	}
}
