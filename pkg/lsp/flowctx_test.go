package lsp

import (
	"slices"
	"strings"
	"testing"
)

func TestFlowContext(t *testing.T) {
	for _, c := range []struct {
		text string // the buffer up to the cursor (|)
		keys string // fc.keys joined by spaces
		at   flowAt
		line int // the line the flow starts on
	}{
		{"      go: [{target: |", "go [] target", flowValue, 0},
		{"    on: {go: [{target: |", "on go [] target", flowValue, 0},
		{"  a: {on: {go: [{target: ../b}, {target: |", "a on go [] target", flowValue, 0},
		{"    on: {go: [{when: 'x == \"a, b]\"', target: |", "on go [] target", flowValue, 0},
		{"    on: {|", "on", flowKey, 0},
		{"    on: {go: [{target: x}], |", "on", flowKey, 0},
		{"        emit: [a, |", "emit", flowItem, 0},
		{"          - {target: |", "[] target", flowValue, 0},
		{"  menu: [a,\n    b, |", "menu", flowItem, 0},
		// a mapping on its own line: its owner is unknown (""), keyPath
		// gives the block keys above it
		{"  go: [\n    {target: |", " target", flowValue, 1},
		{"  timeout: {after: 1m, target: |", "timeout target", flowValue, 0},
		{"  a: {on: {go: [{target: \"../|", "a on go [] target", flowValue, 0},
		// plain text that looks like flow syntax is not a collection
		{"  say: Result [ok\n  target: |", "", flowNone, 0},
		{"  view: it's {here\n  - target: |", "", flowNone, 0},
		{"  target: |", "", flowNone, 0},
		{"  go: [{target: a}]\n  target: |", "", flowNone, 0},
	} {
		text := strings.TrimSuffix(c.text, "|")
		ls := strings.Split(text, "\n")
		line := len(ls) - 1
		fc, k, ok := flowContext(ls, line, ls[line])
		got := strings.Join(fc.keys, " ")
		if c.at == flowNone {
			if ok {
				t.Errorf("%q: context %q %v, want none", c.text, got, fc.at)
			}
			continue
		}
		if !ok || got != c.keys || fc.at != c.at || k != c.line {
			t.Errorf("%q: context %q at %v from line %d (ok %v), want %q at %v from line %d", c.text, got, fc.at, k, ok, c.keys, c.at, c.line)
		}
	}
}

func TestIntentList(t *testing.T) {
	for keys, want := range map[string]bool{
		"states a on go [] emit []": true, "states a menu []": true, "exports intents []": true,
		"imports sub intents export []": true, "intents go []": false, "states a on go []": false, "emit": false,
	} {
		if got := intentList(strings.Fields(keys)); got != want {
			t.Errorf("%s: %v, want %v", keys, got, want)
		}
	}
}

// FuzzFlowContext: any buffer, any cursor: no panic, and a context found
// names a key.
func FuzzFlowContext(f *testing.F) {
	for _, s := range []string{"  go: [{target: ", "on: {a: [b, {c: 'd", "- [ { ] }", "a: \"\\\"", "x: [\n  {y: ", "#{[", "'", "a: b: [c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls := strings.Split(s, "\n")
		fc, k, ok := flowContext(ls, len(ls)-1, ls[len(ls)-1])
		if ok && (!fc.known() || fc.at == flowNone || k < 0 || k >= len(ls)) {
			t.Fatalf("%q: context %+v from line %d", s, fc, k)
		}
		if ok && slices.Contains(fc.keys[len(fc.keys)-1:], "") {
			t.Fatalf("%q: context ends with an empty key", s)
		}
	})
}
