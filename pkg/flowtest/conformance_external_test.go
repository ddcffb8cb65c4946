package flowtest_test

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// Every probe story with an upstream.json under the engine's and the
// views' conformance testdata runs here as it ran on the existing engine
// (internal/testing/conformance says what must agree).
func TestConformanceGoldens(t *testing.T) {
	conformance.CheckTree(t, "../engine/testdata/conformance", "../view/testdata/conformance")
}

// The flow probes of testdata/upstream/<dir> (flow-format.md's own runs),
// held to upstream's --json report of them the same way.
func TestUpstreamProbeReports(t *testing.T) {
	for _, tc := range []struct {
		dir, glob string
		o         flowtest.Options
	}{
		{dir: "probe", glob: "flows/*.yaml"},
		{dir: "probe5", glob: "flows/k2.yaml"},
		{dir: "lint-replay-payload", glob: "flows/*.yaml"},
		{dir: "probe3", glob: "flows/h0[23]*.yaml", o: flowtest.Options{AllowMissingRecording: true}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			conformance.Check(t, filepath.Join("testdata", "upstream", tc.dir), tc.glob, tc.o)
		})
	}
}
