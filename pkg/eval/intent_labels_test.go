package eval

import (
	"path/filepath"
	"strings"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/diag"
)

const labelApp = `app: {id: labels, version: 0.1.0, title: labels}
hosts: [host.agent.decide]
world:
  out: {type: object, default: {}}
intents:
  go: {description: go}
root: s
states:
  s:
    intents:
      stop: {description: stop}
    on_enter:
      - invoke: host.agent.decide
        id: pick
        with: {prompt: "Pick.", schema: schemas/out.json}
        bind: {out: submitted}
      - emit_intent: "{{ world.out.intent }}"
    on:
      go: [{target: done}]
      stop: [{target: done}]
@WILD@
  done: {terminal: true}
`

// labelWarnings validates a dataset of examples against labelApp (with a
// wildcard on: when wild) and returns the intent-label warnings.
func labelWarnings(t *testing.T, comparator, examples string, wild bool) []string {
	t.Helper()
	dir := t.TempDir()
	w := ""
	if wild {
		w = "      \"*\": [{target: done}]"
	}
	storytest.WriteTree(t, dir, map[string]string{
		"app.yaml":         strings.Replace(labelApp, "@WILD@", w, 1),
		"schemas/out.json": `{"type":"object","required":["intent"],"properties":{"intent":{"type":"string","maxLength":8}}}`,
		"evals/pick.yaml":  "kind: agent_eval\napp: ../app.yaml\ncall: pick\nmatrix: {profiles: [claude]}\ncomparator: " + comparator + "\nexamples:\n" + examples,
	})
	d, err := LoadDataset(filepath.Join(dir, "evals", "pick.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range Validate(d, nil).Findings {
		if f.Severity == diag.Error && !strings.Contains(f.Message, "expect schema invalid") {
			t.Fatalf("the story or dataset does not load: %s", f.Message)
		}
		if strings.Contains(f.Message, "no intent of the story") {
			if f.Severity != diag.Warning {
				t.Errorf("not a warning: %v", f)
			}
			got = append(got, f.Message)
		}
	}
	return got
}

// An expected intent that names no intent of the story (a misspelt
// label) is a warning saying which it may have meant: a candidate that
// answers it passes the eval while the story could not route it. A
// declared intent, the story's or its state's, is no warning, nor
// is an expect the schema already refused, a story with a wildcard on:,
// or a comparator that does not compare the intent field.
func TestIntentLabelNamingNoIntentWarns(t *testing.T) {
	examples := "  - {name: typo, expect: {intent: og}}\n  - {name: none, expect: {intent: halt}}\n" +
		"  - {name: declared, expect: {intent: go}}\n  - {name: state-local, expect: {intent: stop}}\n" +
		"  - {name: schema-refused, expect: {intent: much-too-long}}\n"
	got := labelWarnings(t, "{kind: enum, field: intent}", examples, false)
	if len(got) != 2 || !strings.Contains(got[0], `example "typo" expects intent "og"`) || !strings.Contains(got[0], "did you mean `go`?") ||
		!strings.Contains(got[1], `example "none" expects intent "halt"`) || !strings.Contains(got[1], "the story's intents are go, stop") {
		t.Errorf("warnings:\n%s", strings.Join(got, "\n"))
	}
	if got := labelWarnings(t, "{kind: enum, field: intent}", examples, true); len(got) != 0 {
		t.Errorf("wildcard story warned:\n%s", strings.Join(got, "\n"))
	}
	if got := labelWarnings(t, "exact", examples, false); len(got) != 0 {
		t.Errorf("exact comparator warned:\n%s", strings.Join(got, "\n"))
	}
}
