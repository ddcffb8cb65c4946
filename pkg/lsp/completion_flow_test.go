package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"kitsoki/internal/testing/storytest"
)

// State and intent completion inside flow collections, through the real
// server over JSON-RPC: what block style offers, flow style offers too.
func TestCompletionInFlowCollections(t *testing.T) {
	dir := storytest.TempCopy(t, "testdata/demo")
	room := filepath.Join(dir, "rooms", "work.yaml")
	c := startInProcess(t, Options{})
	open(c, filepath.Join(dir, "app.yaml"))
	roomText := open(c, room)
	c.waitDiags(room, 1)

	complete := func(text string, pos protocol.Position) []string {
		var list protocol.CompletionList
		c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(room)}, Position: pos}}, &list)
		var out []string
		for _, it := range list.Items {
			out = append(out, it.Label)
		}
		return out
	}
	doingArm := "          finish:\n            - target: ../checking"
	checkingOn := "        on:\n          finish:\n            - target: \"@exit:done\""
	states := []string{"work.checking", "../checking", "idle", "@exit:done"}
	intents := []string{"finish", "start"}
	for i, tc := range []struct {
		name      string
		old, repl string
		cursor    string // the text the cursor follows (its first occurrence, on one line)
		want      []string
		not       []string
	}{
		{"flow arm list", doingArm, "          finish: [{target: }]", "finish: [{target: ", states, intents},
		{"flow on mapping", checkingOn, "        on: {finish: [{target: }]}", "on: {finish: [{target: ", []string{"work.doing", "../doing", "@exit:done"}, intents},
		{"second arm", doingArm, "          finish: [{target: ../checking}, {when: 'world.attempts > 1', target: }]", "1', target: ", states, nil},
		{"quoted", doingArm, "          finish: [{target: \"../c\"}]", "target: \"../c", states, nil},
		{"flow item of a block list", doingArm, "          finish:\n            - {target: }", "- {target: ", states, nil},
		{"arm list on lines", doingArm, "          finish: [\n              {target: }]", "{target: ", states, nil},
		{"intent key of on: {}", checkingOn, "        on: {}", "on: {", intents, states},
		{"second intent key", checkingOn, "        on: {finish: [{target: ../doing}], }", "}], ", intents, states},
		{"emit list", doingArm, doingArm + "\n              emit: [finish, ]", "emit: [finish, ", intents, states},
		{"emit list, block style", doingArm, doingArm + "\n              emit:\n                - ", "                - ", intents, states},
		{"menu list", checkingOn, "        menu: [st]\n" + checkingOn, "menu: [st", intents, states},
		{"timeout target", checkingOn, "        timeout: {after: 1m, target: }\n" + checkingOn, "after: 1m, target: ", []string{"../doing", "idle"}, intents},
		// a plain scalar with a bracket opens no collection: block style still completes
		{"bracket in a plain scalar", doingArm, "          finish:\n            - view: see [docs\n              target: ", "              target: ", states, nil},
	} {
		text := strings.Replace(roomText, tc.old, tc.repl, 1)
		if text == roomText {
			t.Fatalf("%s: the edit did not apply", tc.name)
		}
		change(c, room, text, int32(10+i))
		got := complete(text, posOf(t, text, tc.cursor, len([]rune(tc.cursor))))
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: completion %v lacks %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%s: completion %v offers %q", tc.name, got, n)
			}
		}
	}
}
