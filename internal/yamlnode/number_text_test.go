package yamlnode

import (
	"math"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"kitsoki/pkg/diag"
)

// A plain scalar yaml.v3 reads as a float but written without a decimal
// point is text (the existing engine's reading: testdata/conformance/
// yaml-number-forms under pkg/engine); with a point, a tag or quotes it
// is what yaml.v3 says, and so are .inf, -.Inf and .NaN, the floats
// (conformance yaml-non-finite); quoted they stay text.
func TestPointlessFloatsAreText(t *testing.T) {
	src := "{a: 1e3, b: -1E+3, c: 08, d: 99999999999999999999, e: 1.0e3, f: .5, g: 017, h: \"1e3\", i: !!float 1e3, j: 12, k: .inf, l: 1_0e2, m: -.Inf, n: \".nan\", o: .NaN, p: +.INF}"
	want := map[string]any{"a": "1e3", "b": "-1E+3", "c": "08", "d": "99999999999999999999", "e": 1000.0, "f": 0.5,
		"g": 15, "h": "1e3", "i": 1000.0, "j": 12, "k": math.Inf(1), "l": "1_0e2", "m": math.Inf(-1), "n": ".nan", "p": "+.INF"}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var out []diag.Diagnostic
	w := NewWalker("f.yaml", len(src), &out, &Rules{NumberText: &diag.Rule{ID: "number-text"}})
	got, _ := w.Raw(&doc).(map[string]any)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Raw: %s = %#v, want %#v", k, got[k], v)
		}
	}
	if f, _ := got["o"].(float64); !math.IsNaN(f) {
		t.Errorf("Raw: o = %#v, want NaN", got["o"])
	}
	// a, b, c, d, l, p warn; nothing else does
	if len(out) != 6 {
		t.Errorf("warnings: %d, want 6:\n%v", len(out), out)
	}
	// a yaml.v3 Decode after TextPointlessFloats reads the same texts
	yaml.Unmarshal([]byte(src), &doc)
	TextPointlessFloats(&doc)
	var dec map[string]any
	if err := doc.Decode(&dec); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c", "d", "l", "p"} {
		if dec[k] != want[k] {
			t.Errorf("Decode: %s = %#v, want %#v", k, dec[k], want[k])
		}
	}
	if dec["e"] != 1000.0 || dec["g"] != 15 {
		t.Errorf("Decode changed a number: e=%#v g=%#v", dec["e"], dec["g"])
	}
}

func TestNumberTextMessageSaysTheFix(t *testing.T) {
	for v, want := range map[string]string{
		"1e3":                   "write 1.0e3",
		"-2E+3":                 "write -2.0E+3",
		"08":                    "write 8",
		"-009":                  "write -9",
		"99999999999999999999":  "does not fit a 64-bit integer",
		"099999999999999999999": "does not fit a 64-bit integer",
		"+.Inf":                 "write .Inf",
	} {
		if got := numberTextMessage(v); !strings.Contains(got, want) || !strings.HasPrefix(got, v+" is read as the text") {
			t.Errorf("%s: %q, want it to say %q", v, got, want)
		}
	}
}
