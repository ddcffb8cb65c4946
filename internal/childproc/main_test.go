package childproc

import (
	"os"
	"testing"

	"kitsoki/internal/testing/storytest"
)

// roleEnv selects a child role of the childroles program.
const roleEnv = "KITSOKI_CHILDPROC_TEST_ROLE"

// roles is the child the tests start (internal/testing/childroles), built
// once without -race by the first test that needs it.
var roles = &storytest.Programs{Pkgs: []string{"kitsoki/internal/testing/childroles"}}

// rolesBin returns the childroles program's path.
func rolesBin(t testing.TB) string {
	t.Helper()
	return roles.Path(t, "childroles")
}

func TestMain(m *testing.M) {
	code := m.Run()
	roles.Remove()
	os.Exit(code)
}
