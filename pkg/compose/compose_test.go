package compose

import (
	"errors"
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/storytest"
	"kitsoki/pkg/engine"
	"kitsoki/pkg/plugin"
)

const rig = "../flowtest/testdata/rig/app.yaml"

func TestLoadCompileViews(t *testing.T) {
	ld, err := Load(rig, LoadOptions{Compile: engine.CompileOptions{LateHandlers: true}})
	if err != nil || ld.Machine == nil || ld.CompileErr != nil || ld.Views == nil {
		t.Fatalf("load: %v %+v", err, ld)
	}
	if ld.Machine.AppID != "rig" {
		t.Fatalf("machine of the wrong story: %s", ld.Machine.AppID)
	}
	ld, err = Load(rig, LoadOptions{NoCompile: true})
	if err != nil || ld.Machine != nil {
		t.Fatalf("NoCompile compiled: %+v", ld)
	}
}

func TestLoadErrors(t *testing.T) {
	bad := filepath.Join(storytest.TempTree(t, map[string]string{"app.yaml": "app: {id: x}\nroot: nowhere\nstates: {a: {}}\n"}), "app.yaml")
	_, err := Load(bad, LoadOptions{})
	var le *LoadError
	if !errors.As(err, &le) || len(le.Diagnostics) == 0 || le.Path != bad {
		t.Fatalf("a story that does not load is a LoadError with its diagnostics: %v", err)
	}
}

func TestResolveBuildClose(t *testing.T) {
	ld, err := Load(rig, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Resolve(ld, "")
	if err != nil {
		t.Fatal(err)
	}
	rt, err := plan.Build(BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rt.Caller() == nil || rt.Chain == nil || rt.Agents == nil {
		t.Fatalf("runtime: %+v", rt)
	}
	if regErr, chainErr := rt.Close(); regErr != nil || chainErr != nil {
		t.Fatalf("close: %v %v", regErr, chainErr)
	}
	_, err = Resolve(ld, filepath.Join(t.TempDir(), "missing.yaml"))
	var pe *plugin.ProfileError
	if !errors.As(err, &pe) {
		t.Fatalf("a missing --profile is a ProfileError: %v", err)
	}
}
