package lint

import (
	"slices"
	"strings"
	"testing"

	"kitsoki/pkg/story"
)

// default_intent, contextual_routing's plan intents and
// routing.free_form_fallback.intent name an intent the state has an arc
// for, that is declared and (except the plan intents) takes free text.
func TestArcIntentMessages(t *testing.T) {
	src := `app: {id: t}
root: start
intents:
  go: {}
  two:
    slots:
      a: {type: string, required: true}
      b: {type: string, required: true}
states:
  start:
    default_intent: two
    contextual_routing:
      enabled: true
      help_chat: true
      plan_accept_intent: nope
    on:
      go: [{target: mid}]
      two: [{target: mid}]
  mid:
    default_intent: missing
    on:
      go: [{target: end}]
  end: {terminal: true}
routing:
  free_form_fallback: {state: end, intent: go}
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == story.RuleState.ID || d.Rule == story.RuleRouting.ID {
			got = append(got, d.String())
		}
	}
	want := []string{
		`app.yaml:11:21: error: state "start": default_intent "two" must declare exactly one required string slot to receive the free-text utterance; it requires slots a, b: keep one string slot required, the others optional [state]`,
		`app.yaml:12:5: error: state "start": contextual_routing.plan_accept_intent "nope" has no matching on: arc in this state [state]`,
		`app.yaml:12:5: error: state "start": contextual_routing.plan_accept_intent "nope" is not a declared intent [state]`,
		`app.yaml:20:21: error: state "mid": default_intent "missing" has no matching on: arc in this state [state]`,
		`app.yaml:20:21: error: state "mid": default_intent "missing" is not a declared intent [state]`,
		`app.yaml:24:1: error: routing.free_form_fallback.intent "go" has no matching on: arc in state "end" [routing]`,
		`app.yaml:24:1: error: routing.free_form_fallback.intent "go" must declare exactly one required string slot to receive the free-text utterance; it requires no slot: mark one string slot required: true [routing]`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The existing engine takes free text into an intent only when its one
// required slot is a string: a second required slot of another type (a
// date, an int) refuses the story as a second string slot does, and so
// does a sole required slot of another type.
func TestArcIntentFreeTextTypes(t *testing.T) {
	src := `app: {id: t}
root: start
intents:
  ask:
    slots:
      question: {type: string, required: true}
      when: {type: date, required: true}
  num: {slots: {n: {type: int, required: true}, note: {type: string}}}
  fine: {slots: {q: {required: true}, n: {type: int}}}
states:
  start:
    default_intent: ask
    on:
      ask: [{target: mid}]
  mid:
    default_intent: num
    on:
      num: [{target: end}]
  end:
    default_intent: fine
    on:
      fine: [{target: end}]
`
	_, ds := LoadSource("app.yaml", []byte(src), story.Options{})
	var got []string
	for _, d := range ds {
		if d.Rule == story.RuleState.ID {
			got = append(got, d.String())
		}
	}
	want := []string{
		`app.yaml:12:21: error: state "start": default_intent "ask" must declare exactly one required string slot to receive the free-text utterance; it requires slots question, when: keep one string slot required, the others optional [state]`,
		`app.yaml:16:21: error: state "mid": default_intent "num" must declare exactly one required string slot to receive the free-text utterance; its required slot n is type: int: make it type: string [state]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
