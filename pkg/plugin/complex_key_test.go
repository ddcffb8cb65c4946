package plugin

import (
	"kitsoki/internal/recost"
	"strings"
	"testing"

	"kitsoki/internal/testing/gotype"
)

// A mapping or a list used as a key refuses a plugin manifest (yaml.v3's
// decode through a merge failed with "runtime error: hash of unhashable
// type") and a plugin profile (a config key read as the plugin id "") at
// its place.
func TestComplexKeyRefused(t *testing.T) {
	_, err := parseManifest("m.yaml", []byte("id: x\nentry: {<<: , {}: , [x]: }\nhooks: [{point: turn/pre}]\n"))
	if err == nil || !strings.Contains(err.Error(), "m.yaml:2:15: a mapping or a list is used as a key; a key in this plugin manifest") || gotype.Named(err.Error(), nil) != "" {
		t.Errorf("manifest: %v", err)
	}
	_, err = parseProfile("p.yaml", []byte("config:\n  [budget]: {max_tokens: 5}\n"), recost.NewBudget())
	if err == nil || !strings.Contains(err.Error(), "p.yaml:2:3: error: a mapping or a list is used as a key; a key in this plugin profile") {
		t.Errorf("profile: %v", err)
	}
}
