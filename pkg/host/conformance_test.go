package host_test

import (
	"path/filepath"
	"testing"

	"kitsoki/internal/testing/conformance"
	"kitsoki/pkg/flowtest"
)

// TestConformance: Starlark stories written to probe upstream's inspect
// cassette (probes 10 and 11 and their neighbours: interactions played
// once each and in order, across calls of a fixture; probe arguments not
// compared; exists, glob and read answers; misses naming every
// interaction) and its script path fallback (probe 12, run from the
// directory its story is below), and host.run with YAML integer args and
// timeout (refused upstream, run here: a documented difference) and
// with the same values quoted, a cwd that does not exist, and a stubbed decide whose
// schema lies outside schemas/ (not validated against it) give, fixture by fixture and turn by turn,
// the verdicts, states and views the existing engine recorded.
func TestConformance(t *testing.T) {
	for _, dir := range []string{"inspect", "probe10", "probe11", "run-int-literals", "run-int-quoted", "run-bad-cwd", "stub-schema-anywhere"} {
		t.Run(dir, func(t *testing.T) {
			conformance.Check(t, filepath.Join("testdata", "conformance", dir), "", flowtest.Options{})
		})
	}
	t.Run("probe12", func(t *testing.T) {
		dir, err := filepath.Abs(filepath.Join("testdata", "conformance", "probe12"))
		if err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir) // the script path is relative to the working directory
		conformance.Check(t, "story", "", flowtest.Options{})
	})
}
