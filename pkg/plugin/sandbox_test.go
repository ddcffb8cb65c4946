package plugin

import "testing"

// The environment turns the sandbox on but never off against --sandbox,
// and a value that is neither on nor off is an error naming it.
func TestSandboxMode(t *testing.T) {
	for _, c := range []struct {
		flag bool
		env  string
		want bool
	}{
		{false, "", false}, {true, "", true},
		{false, "1", true}, {false, " Yes ", true}, {false, "ON", true}, {false, "true", true},
		{true, "0", true}, {false, "off", false}, {false, "No", false}, {true, "false", true},
	} {
		got, err := SandboxMode(c.flag, c.env)
		if err != nil || got != c.want {
			t.Errorf("flag %v, %s=%q: %v, %v; want %v", c.flag, SandboxEnv, c.env, got, err, c.want)
		}
	}
	if _, err := SandboxMode(true, "maybe"); err == nil || err.Error() != `KITSOKI_SANDBOX="maybe": expected 1 (sandbox on) or 0` {
		t.Errorf("maybe: %v", err)
	}
}
