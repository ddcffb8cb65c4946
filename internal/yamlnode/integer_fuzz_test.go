package yamlnode

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// FuzzInteger: an integer field (priority, port) written any way is read
// with at most one diagnostic; a refusal reads 0 and names the field; a
// plain YAML int that strconv reads is that very number with no
// diagnostic; any other reading is the number strconv reads from the text
// cut toward zero (the lowest integer past the 64-bit range), with a
// warning that names it unless it is exact.
func FuzzInteger(f *testing.F) {
	for _, s := range []string{"5", "+3", "1_000", "0x10", "017", "0o17", "0b11", "-0x10", "1_", "9223372036854775807",
		"5.5", "-5.5", ".5", "3.0", "4.9e1", "-1.0e3", "!!float 1e3", "!!float -1", "-9.3e18", "-.inf", "1e3", "08",
		"1_0.5", "0x1p4", `"3"`, `'7'`, `"017"`, `"+5.5"`, `"-0"`, `"1e18"`, "!!str 5", "1e19", `"9.3e18"`,
		`"18446744073709551615"`, `"-1"`, "-1e3", `"0x10"`, "_1", `" 3"`, "true", ".nan", `"1e400"`,
		"99999999999999999999", "9223372036854775808", "!!int 5", "[1]", "~", "&a 5", "|\n  5\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		src := "p: " + text
		var doc yaml.Node
		if len(src) > 1024 || yaml.Unmarshal([]byte(src), &doc) != nil || len(doc.Content) == 0 ||
			doc.Content[0].Kind != yaml.MappingNode || len(doc.Content[0].Content) != 2 {
			return
		}
		n := doc.Content[0].Content[1]
		var ds []diag.Diagnostic
		w := NewWalker("f.yaml", len(src), &ds, &Rules{Type: &diag.Rule{ID: "type"}, NumberText: &diag.Rule{ID: "number-text"}})
		got := w.Integer(n, "p")
		if len(ds) > 1 {
			t.Fatalf("%q: %d diagnostics %v", text, len(ds), ds)
		}
		warned := len(ds) == 1 && ds[0].Severity != diag.Error
		if len(ds) == 1 && !warned {
			if got != 0 || !strings.HasPrefix(ds[0].Message, "p: expected an integer") {
				t.Fatalf("%q read %d with %v", text, got, ds[0])
			}
			return
		}
		if warned && !strings.Contains(ds[0].Message, strconv.Itoa(got)) {
			t.Fatalf("%q read %d with %v", text, got, ds[0])
		}
		if IsNull(n) || n.Kind != yaml.ScalarNode {
			return
		}
		plain := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); plain && n.ShortTag() == "!!int" && err == nil {
			if int64(got) != i {
				t.Fatalf("%q read %d, strconv reads %d", text, got, i)
			}
			return
		}
		fl, err := strconv.ParseFloat(floatText(strings.ReplaceAll(n.Value, "_", "")), 64)
		want := math.Trunc(fl)
		if warned && (want >= 1<<63 || want < -(1<<63)) {
			want = -(1 << 63) // the lowest integer, as upstream reads a number past the range
		}
		if err != nil || float64(got) != want || !warned && want != fl {
			t.Fatalf("%q read %d (warned %v); strconv reads %v (%v)", text, got, warned, fl, err)
		}
	})
}
