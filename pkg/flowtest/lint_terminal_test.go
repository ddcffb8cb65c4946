package flowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/pkg/diag"
	storylint "kitsoki/pkg/lint"
	"kitsoki/pkg/story"
)

// wantFinding: got is one finding holding want, or none when want is "".
func wantFinding(t *testing.T, got []diag.Diagnostic, want string) {
	t.Helper()
	if want == "" {
		if len(got) != 0 {
			t.Fatalf("want no finding, got %v", got)
		}
		return
	}
	if len(got) != 1 || !strings.Contains(got[0].Message, want) {
		t.Fatalf("want one finding holding %q, got %v", want, got)
	}
}

// wantRuleFinding is wantFinding where got holds two rules' findings:
// the one finding is also rule's.
func wantRuleFinding(t *testing.T, got []diag.Diagnostic, rule, want string) {
	t.Helper()
	wantFinding(t, got, want)
	if want != "" && got[0].Rule != rule {
		t.Fatalf("want one %s finding holding %q, got %v", rule, want, got)
	}
}

// ruleFindings loads the story files into a temporary directory and
// returns the findings of rule the fixture src gets against it.
func ruleFindings(t *testing.T, rule *diag.Rule, files map[string]string, src string) []diag.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, ds := storylint.Load(filepath.Join(dir, "app.yaml"), story.Options{})
	if st == nil || diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	fxs, pds := parse("flows/r.yaml", []byte(src))
	if diag.HasErrors(pds) {
		t.Fatal(pds)
	}
	var got []diag.Diagnostic
	for _, d := range lint(st, fxs) {
		if d.Rule == rule.ID {
			got = append(got, d)
		}
	}
	return got
}

const terminalApp = `app: {id: term}
root: lobby
intents: {quit: {}, leave: {}, exit: {}, split: {}, nest: {}, enter: {}}
exits:
  out: {description: "Out."}
imports:
  kid: {source: ./kid, entry: start, exits: {done: {to: lobby}}}
states:
  lobby:
    on:
      quit: [{target: ended}]
      leave: [{target: gone}]
      exit: [{target: "@exit:out"}]
      split: [{target: par}]
      nest: [{target: box}]
      enter: [{target: kid}]
  ended: {view: "Bye."}
  gone: {terminal: true, view: "Gone."}
  box:
    type: compound
    initial: inner
    states:
      inner: {view: "In."}
  par:
    type: parallel
    states:
      a: {type: compound, initial: x, states: {x: {view: "x"}}}
      b: {type: compound, initial: y, states: {y: {view: "y"}}}
`

const terminalKid = `app: {id: kid}
root: start
intents: {finish: {}}
exits:
  done: {description: "Done."}
states:
  start:
    on:
      finish: [{target: fin}]
  fin: {terminal: true}
`

// TestNotTerminal: flow-not-terminal warns where the fixture certainly
// ends in a state declared without terminal: true, and nowhere the end is
// terminal, unknown or not a plain leaf.
func TestNotTerminal(t *testing.T) {
	files := map[string]string{"app.yaml": terminalApp, "kid/app.yaml": terminalKid}
	warns := map[string]struct{ src, state string }{
		"expect_state": {"initial_state: lobby\nturns:\n  - intent: {name: quit}\n    expect_state: ended\nexpect_terminal: true\n", "ended"},
		"rested":       {"initial_state: lobby\nturns:\n  - intent: {name: quit}\nexpect_terminal: true\n", "ended"},
		"orchestrated": {"use_orchestrator: true\ninitial_state: lobby\nturns:\n  - intent: {name: quit}\n    expect_state: ended\nexpect_terminal: true\n", "ended"},
		// a legacy rejection leaves the machine where it was
		"legacy expect_error": {"initial_state: lobby\nturns:\n  - intent: {name: finish}\n    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}\nexpect_terminal: true\n", "lobby"},
		"child state":         {"initial_state: lobby\nturns:\n  - intent: {name: enter}\n    expect_state: kid.start\nexpect_terminal: true\n", "kid.start"},
	}
	for name, c := range warns {
		t.Run(name, func(t *testing.T) {
			got := ruleFindings(t, ruleNotTerminal, files, "test_kind: flow\n"+c.src)
			if len(got) != 1 || !strings.Contains(got[0].Message, `ends in "`+c.state+`"`) || !strings.Contains(got[0].Message, "declare terminal: true") {
				t.Fatalf("want one finding naming %s and the fix, got %v", c.state, got)
			}
		})
	}
	quiet := map[string]string{
		"terminal":       "initial_state: lobby\nturns:\n  - intent: {name: leave}\n    expect_state: gone\nexpect_terminal: true\n",
		"exit":           "initial_state: lobby\nturns:\n  - intent: {name: exit}\n    expect_state: __exit__out\nexpect_terminal: true\n",
		"false":          "initial_state: lobby\nturns:\n  - intent: {name: quit}\n    expect_state: ended\nexpect_terminal: false\n",
		"compound":       "initial_state: lobby\nturns:\n  - intent: {name: nest}\n    expect_state: box\nexpect_terminal: true\n",
		"parallel":       "initial_state: lobby\nturns:\n  - intent: {name: split}\n    expect_state: \"par#par.a.x|par.b.y\"\nexpect_terminal: true\n",
		"unknown end":    "initial_state: lobby\nturns:\n  - intent: {name: split}\nexpect_terminal: true\n",
		"expect_error":   "use_orchestrator: true\ninitial_state: lobby\nturns:\n  - intent: {name: finish}\n    expect_error: {code: INTENT_NOT_ALLOWED_IN_STATE}\n    expect_state: ended\nexpect_terminal: true\n",
		"child terminal": "initial_state: lobby\nturns:\n  - intent: {name: enter}\n  - intent: {name: finish}\n    expect_state: kid.fin\nexpect_terminal: true\n",
		"no turns":       "initial_state: ended\nturns: []\nexpect_terminal: true\n",
	}
	for name, src := range quiet {
		t.Run(name, func(t *testing.T) {
			if got := ruleFindings(t, ruleNotTerminal, files, "test_kind: flow\n"+src); len(got) != 0 {
				t.Fatalf("want no finding, got %v", got)
			}
		})
	}
}
