package localllme2e

import (
	"testing"

	"kitsoki/internal/testing/llamastandin/standintest"
)

// artifacts is the loopback artifact server (standintest.ServeArtifacts):
// the llama-server STAND-IN packed like a llama.cpp release and a model
// file, pinned by an overlay file for KITSOKI_PINS.
type artifacts = standintest.Artifacts

// standin builds the stand-in once for this test binary.
var standin standintest.Cache

func newArtifacts(t *testing.T) *artifacts {
	t.Helper()
	return standintest.ServeArtifacts(t, standin.Binary(t))
}
