package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// A number or a bool scalar becomes the text Go prints for its value
// (probed on the existing engine's cassettes, hunt97); strings, null,
// dates and collections are left as written.
func TestTextAsPrinted(t *testing.T) {
	for in, want := range map[string]string{
		"1.0": "1", "0x1F": "31", "0o17": "15", "True": "true", "1000000.0": "1e+06",
		"2.50": "2.5", "-0.0": "-0", ".inf": "+Inf", "7": "7",
		"abc": "abc", `"1.0"`: "1.0", "2026-01-02": "2026-01-02", "~": "~", "[1.0]": "",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(in), &doc); err != nil {
			t.Fatal(err)
		}
		n := doc.Content[0]
		TextAsPrinted(n)
		if n.Kind == yaml.ScalarNode && n.Value != want {
			t.Errorf("%s: got %q, want %q", in, n.Value, want)
		}
		if n.Kind != yaml.ScalarNode && n.Content[0].Value != "1.0" {
			t.Errorf("%s: a list was changed", in)
		}
	}
}
