package story

import (
	"path/filepath"
	"reflect"
	"testing"

	"kitsoki/internal/yamlfast"
)

// TestYAMLFastSwitchSameLoad: every story of the testdata corpus and the
// upstream corners loads to the same model and diagnostics with the fast
// YAML front end on and with it off (KITSOKI_YAMLFAST=0, yaml.v3 alone).
func TestYAMLFastSwitchSameLoad(t *testing.T) {
	dirs := corpusDirs(t)
	upstream, _ := filepath.Glob("testdata/upstream/*")
	dirs = append(dirs, upstream...)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Setenv(yamlfast.SwitchEnv, "")
			on, don := Load(dir, Options{LookupEnv: noEnv})
			t.Setenv(yamlfast.SwitchEnv, "0")
			off, doff := Load(dir, Options{LookupEnv: noEnv})
			if diff := diffDiags(don, doff); diff != "" {
				t.Fatalf("diagnostics differ (split: on, whole: off):\n%s", diff)
			}
			if err := sameModel(reflect.ValueOf(on), reflect.ValueOf(off), "story", map[[2]uintptr]bool{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
