package yamlnode

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// Integer reads each form as the existing engine does (conformance golden
// priority-number-forms under pkg/engine holds the accepted ones against
// its report; the refusals are its load errors).
func TestIntegerReadsAsUpstream(t *testing.T) {
	const refused = "refused"
	for _, tc := range []struct {
		src  string
		want any // an int64, or refused
		warn bool
	}{
		{"5", int64(5), false}, {"+3", int64(3), false}, {"1_000", int64(1000), false},
		{"0x10", int64(16), false}, {"017", int64(15), false}, {"0o17", int64(15), false},
		{"0b11", int64(3), false}, {"-0x10", int64(-16), false}, {"1_", int64(1), false},
		{"9223372036854775807", int64(math.MaxInt64), false},
		{"5.5", int64(5), true}, {"-5.5", int64(-5), true}, {".5", int64(0), true},
		{"3.0", int64(3), false}, {"4.9e1", int64(49), false}, {"-1.0e3", int64(-1000), false},
		{"!!float 1e3", int64(1000), false}, {"!!float -1", int64(-1), false},
		{"-9.3e18", int64(math.MinInt64), true}, {"-.inf", int64(math.MinInt64), true},
		{"1e3", int64(1000), false}, {"1e0", int64(1), false}, {"08", int64(8), false},
		{"1_0.5", int64(10), true}, {"0x1p4", int64(16), false},
		{`"3"`, int64(3), false}, {`'7'`, int64(7), false}, {`"017"`, int64(17), false},
		{`"+5.5"`, int64(5), true}, {`"-0"`, int64(0), false}, {`"1e18"`, int64(1e18), false},
		{"!!str 5", int64(5), false},
		{"1e19", int64(math.MinInt64), true}, {`"9.3e18"`, int64(math.MinInt64), true},
		{`"18446744073709551615"`, int64(math.MinInt64), true},
		{`"-1"`, refused, false}, {"-1e3", refused, false}, {"-1e19", refused, false},
		{`"-5.5"`, refused, false}, {"!!str -1", refused, false},
		{`"0x10"`, refused, false}, {`"0b11"`, refused, false}, {`"1__0"`, refused, false},
		{"_1", refused, false}, {`" 3"`, refused, false}, {`"abc"`, refused, false},
		{"true", refused, false}, {".inf", refused, false}, {".nan", refused, false},
		{`"NaN"`, refused, false}, {`"1e400"`, refused, false}, {`"1e20"`, refused, false},
		{"99999999999999999999", refused, false}, {"9223372036854775808", refused, false},
		{"1.8e19", refused, false}, {"9.3e18", refused, false},
		{"!!int 5", refused, false}, {"[1]", refused, false},
	} {
		t.Run(tc.src, func(t *testing.T) {
			src := "p: " + tc.src
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
				t.Fatal(err)
			}
			var out []diag.Diagnostic
			w := NewWalker("f.yaml", len(src), &out, &Rules{Type: &diag.Rule{ID: "type"}, NumberText: &diag.Rule{ID: "number-text"}})
			got := w.Integer(doc.Content[0].Content[1], "p")
			var errs, warns []string
			for _, d := range out {
				if d.Severity == diag.Error {
					errs = append(errs, d.Message)
				} else {
					warns = append(warns, d.Message)
				}
			}
			if tc.want == refused {
				if len(errs) != 1 || got != 0 || !strings.Contains(errs[0], "p: expected an integer") {
					t.Errorf("got %d, errors %q; want one refusal", got, errs)
				}
				return
			}
			if len(errs) != 0 || fmt.Sprint(int64(got)) != fmt.Sprint(tc.want) {
				t.Errorf("got %d, errors %q; want %v", got, errs, tc.want)
			}
			if (len(warns) == 1) != tc.warn || len(warns) > 1 {
				t.Errorf("warnings %q; want a warning: %v", warns, tc.warn)
			}
		})
	}
}
