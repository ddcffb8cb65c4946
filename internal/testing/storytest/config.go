package storytest

import "os"

// EmptyConfigDir, for a TestMain, points XDG_CONFIG_HOME at a new empty
// directory and returns what removes it: a developer's own plugin profile
// (kitsoki/plugins.yaml under XDG_CONFIG_HOME, or ~/.config) must not
// change what the tests see. A test that needs a user profile sets its
// own.
func EmptyConfigDir() (remove func()) {
	dir, err := os.MkdirTemp("", "kitsoki-test-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	return func() { os.RemoveAll(dir) }
}
