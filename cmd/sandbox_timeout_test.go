package cmd

import (
	"testing"
	"time"
)

// Under --sandbox a fixture is bounded in time whether or not --timeout is
// given (a stranger's story of many costly guards ran for minutes with none);
// --timeout, given, is the user's, 0 included; without --sandbox nothing
// changes.
func TestSandboxTimeoutDefault(t *testing.T) {
	for _, c := range []struct {
		name     string
		f        testFlags
		sandbox  bool
		want     time.Duration
		defaults bool
	}{
		{"--sandbox alone", testFlags{}, true, sandboxTimeout, true},
		{"--sandbox --timeout 30s", testFlags{timeout: 30 * time.Second, timeoutSet: true}, true, 30 * time.Second, false},
		{"--sandbox --timeout 0", testFlags{timeoutSet: true}, true, 0, false},
		{"no --sandbox", testFlags{}, false, 0, false},
	} {
		o := c.f.runnerOptions(c.sandbox)
		if o.Timeout != c.want || o.TimeoutDefault != c.defaults {
			t.Errorf("%s: Timeout %s (default %v), want %s (%v)", c.name, o.Timeout, o.TimeoutDefault, c.want, c.defaults)
		}
	}
}
