package lint

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/golden"
	"kitsoki/pkg/story"
)

// whereMsgSrc has errors in arms and effects named by their place in
// messages: list items, single mappings, nested effects, an empty intent
// key, a value that is not a list.
const whereMsgSrc = `app: {id: wm}
root: a
intents: {go: {}}
states:
  a:
    on_enter:
      - say: hi
        sai: typo
      -
      - set: [1]
      - invoke: x
        with: 5
        on_complete:
          - sey: nested
    on:
      go:
        - target: [a]
          tagret: a
        - target: a
          effects:
            - set: {x: 1}
              bogus: 1
            - emit_intent: [z]
      back: {target: a, whn: x, default: maybe}
      "": {target: a, when: [1]}
      five: 5
      six: [7]
  b:
    on_enter: {say: [x], background: maybe}
    on: {go: a}
  c:
    view:
      - prose: [x]
      - when: [1]
        heading: h
      - {}
      - 5
      - {prose: a, heading: b}
      - list: {items: []}
      - banner: {text: [t]}
      - code: c
        extra: 1
`

// TestWhereMessages pins the diagnostics of whereMsgSrc (the names are
// put together only when a message needs them; the expected text is the
// output of the parser that built every name eagerly).
func TestWhereMessages(t *testing.T) {
	_, ds := LoadSource("wm.yaml", []byte(whereMsgSrc), story.Options{LookupEnv: noEnv})
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%d:%d %s %s %s\n", d.Line, d.Col, d.Severity, d.Rule, d.Message)
	}
	got := b.String()
	if golden.Update() {
		t.Logf("\n%s", got)
	}
	if want := strings.ReplaceAll(strings.TrimLeft(whereMsgWant, "\n"), "§", "`"); got != want {
		t.Errorf("messages:\n%s\nwant:\n%s", got, want)
	}
}

// whereMsgWant has § for a backquote.
const whereMsgWant = `
8:9 error unknown-key effect states.a.on_enter[0]: unknown key "sai"; did you mean §say§?
9:8 warning effect effect states.a.on_enter[1]: empty effect (it does nothing; remove the bare list item)
10:14 error type states.a.on_enter[2].set: expected a mapping, got a list
12:15 error type states.a.on_enter[3].with: expected a mapping, got an int
14:11 warning effect state "a" on_enter[3]: on_complete: only runs after a background: true invoke; this effect is not a background job
14:13 error unknown-key effect states.a.on_enter[3].on_complete[0]: unknown key "sey"; did you mean §say§?
17:19 error type states.a.on.go[0].target: expected a string, got a list
18:11 error unknown-key transition states.a.on.go[0]: unknown key "tagret"; did you mean §target§?
22:15 error unknown-key effect states.a.on.go[1].effects[0]: unknown key "bogus"; expected one of §agent§, §background§, §bind§, §effects§, §emit§, §emit_intent§, §id§, §increment§, §invoke§, §on_complete§, §on_error§, §once§, §say§, §selection§, §set§, §slots§, §target§, §timeout§, §when§, §with§
23:28 error type states.a.on.go[1].effects[1].emit_intent: expected a string, got a list
24:7 error intent state "a": on: "back" — intent not declared in intents library or state.intents
24:13 error type states.a.on.back: expected a list, got a mapping (write it as a list item: §- § before its first key)
24:25 error unknown-key transition states.a.on.back: unknown key "whn"; did you mean §when§?
24:42 error type states.a.on.back.default: expected true or false, got "maybe"
25:7 error intent state "a": on: "" — intent not declared in intents library or state.intents
25:11 error type states.a.on.: expected a list, got a mapping (write it as a list item: §- § before its first key)
25:29 error type states.a.on..when: expected a string, got a list
26:7 error intent state "a": on: "five" — intent not declared in intents library or state.intents
26:13 error type states.a.on.five: expected a list, got an int
27:7 error intent state "a": on: "six" — intent not declared in intents library or state.intents
27:13 error target state "a": transition target "7" (resolved: "7") does not exist; did you mean §a§?
27:13 error type states.a.on.six[0]: expected a mapping, got "7" (write {target: 7})
29:15 error type states.b.on_enter: expected a list, got a mapping (write it as a list item: §- § before its first key)
29:21 error type states.b.on_enter.say: expected a string, got a list
29:38 error type states.b.on_enter.background: expected true or false, got "maybe"
30:14 error type states.b.on.go: expected a list, got a string
33:16 error type states.c.view[0].prose: expected a string, got a list
34:15 error type states.c.view[1].when: expected a string, got a list
36:9 error view states.c.view[2]: element has no kind (expected one of prose / heading / list / kv / code / template / banner / choice)
37:9 error view states.c.view[3]: element must be a mapping with one kind key (one of prose / heading / list / kv / code / template / banner / choice / media), got an int
38:9 error view states.c.view[4]: element has multiple kinds set (prose, heading); each element must declare exactly one
39:9 error view state "c": view[5] (list): list requires items: with at least one entry
40:9 error view state "c": view[6] (banner): banner requires a non-empty text
40:24 error type states.c.view[6] (banner).text: expected a string, got a list
42:9 warning unknown-key states.c.view[7]: unknown key "extra"; expected one of §banner§, §choice§, §code§, §heading§, §kv§, §list§, §media§, §prose§, §template§, §when§
`
