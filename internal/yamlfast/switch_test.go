package yamlfast

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestSwitchTurnsParseOff: with KITSOKI_YAMLFAST=0 (and its spellings)
// ParseWithin and ParseString decline a document they otherwise parse; any
// other value leaves them on.
func TestSwitchTurnsParseOff(t *testing.T) {
	const doc = "app: { id: x }\nstates:\n  a: {}\n"
	for _, v := range []string{"", "1", "on", "0", "false", "OFF", "no"} {
		t.Run("value="+v, func(t *testing.T) {
			t.Setenv(SwitchEnv, v)
			off := v == "0" || v == "false" || v == "OFF" || v == "no"
			if Off() != off {
				t.Fatalf("Off() = %v", Off())
			}
			if _, ok := parseDoc([]byte(doc)); ok == off {
				t.Errorf("ParseWithin ok = %v", ok)
			}
			if _, ok := ParseString(doc); ok == off {
				t.Errorf("ParseString ok = %v", ok)
			}
		})
	}
}

// ParseString is ParseWithin for a string, whose memory the values share.
func ParseString(s string) (*yaml.Node, bool) {
	if Off() {
		return nil, false
	}
	doc, why, _ := parse(s, false, 0)
	return doc, why == ""
}
