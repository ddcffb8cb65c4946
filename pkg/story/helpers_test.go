package story

import (
	"testing"

	"kitsoki/internal/testing/storytest"
)

var (
	render = storytest.Render
	noEnv  = storytest.NoEnv
)

func corpusDirs(t testing.TB) []string {
	t.Helper()
	return storytest.Subdirs(t, "testdata/corpus", 5)
}
