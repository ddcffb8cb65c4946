package flowtest

import (
	"fmt"
	"strings"
	"testing"

	"kitsoki/internal/testing/aliasmb"
	"kitsoki/internal/yamlnode"
	"kitsoki/pkg/diag"
)

// aliasTurns is a flow document whose anchor holds size bytes and whose
// turns each name it n times as expect_view_matches.
func aliasTurns(size, n int) string {
	var b strings.Builder
	b.WriteString("test_kind: flow\ninitial_state: a\nx-big: &big " + strings.Repeat("v", size) + "\nturns:\n")
	for range n {
		b.WriteString("  - {intent: go, expect_view_matches: *big}\n")
	}
	return b.String()
}

// mbTurns is a flow document whose turns each name mb (aliasmb) as
// expect_view_matches; its first turn is on line 5.
func mbTurns(n int) string {
	var b strings.Builder
	b.WriteString("test_kind: flow\ninitial_state: a\nx-anchors: " + aliasmb.Anchors() + "\nturns:\n")
	for range n {
		b.WriteString("  - {intent: go, expect_view_matches: *mb}\n")
	}
	return b.String()
}

// A fixture file's aliases repeat at most the limit's text in all: a 1 MB
// value named on 100 turns (before: each turn compiled and matched it, and
// each failure printed it) is one error at the alias past the limit, and
// the documents of one file share the limit; aliases of the sizes fixtures
// use parse as before.
func TestAliasesRepeatAtMostTheFileLimit(t *testing.T) {
	over := func(ds []diag.Diagnostic) *diag.Diagnostic {
		for i, d := range ds {
			if d.Severity == diag.Error && strings.Contains(d.Message, "MB of text by here") {
				return &ds[i]
			}
		}
		return nil
	}
	fxs, ds := parse("flows/big.yaml", []byte(mbTurns(100)))
	d := over(ds)
	if d == nil || len(fxs) != 0 {
		t.Fatalf("a 1 MB anchor on 100 turns: %d fixtures, findings %v", len(fxs), ds[:min(len(ds), 3)])
	}
	// mb's own list spends aliasmb.Text, so the turn past the limit is number
	// MaxAliasText/aliasmb.Text, on line 4 plus that
	if want := 4 + yamlnode.MaxAliasText/aliasmb.Text; d.Line != want {
		t.Errorf("the error is at line %d, want %d (%s)", d.Line, want, d.Message)
	}
	// documents share the file's limit: each alone is within it
	doc := mbTurns(40)
	_, ds = parse("flows/docs.yaml", []byte(doc+"---\n"+doc))
	if over(ds) == nil {
		t.Errorf("two documents of 40 MB each: no limit error (%v)", ds[:min(len(ds), 3)])
	}
	fxs, ds = parse("flows/modest.yaml", []byte(aliasTurns(4096, 200)))
	if len(fxs) != 1 || len(fxs[0].Turns) != 200 || over(ds) != nil {
		t.Fatalf("a 4 KB anchor on 200 turns: %d fixtures, %v", len(fxs), ds)
	}
	if d := fmt.Sprint(ds); strings.Contains(d, "alias") {
		t.Errorf("modest aliases: %s", d)
	}
}
