package flowtest

import "testing"

// TestCassetteTurns: the fixtures that may append to one host cassette
// (host_bindings and host_cassette) wait, in file order, for the previous
// one of that cassette; the others, and another cassette's, wait for none.
func TestCassetteTurns(t *testing.T) {
	bound := []KV{{Key: "host.run", Value: "host.run"}}
	fxs := []*Fixture{
		{File: "flows/a.yaml", HostCassette: "c.yaml", HostBindings: bound},
		{File: "flows/b.yaml", HostCassette: "c.yaml"},                          // replays only
		{File: "flows/c.yaml", HostCassette: "other.yaml", HostBindings: bound}, // another cassette
		{File: "flows/d.yaml", HostCassette: "./c.yaml", HostBindings: bound},
		{File: "flows/sub/e.yaml", HostCassette: "../c.yaml", HostBindings: bound},
	}
	wait, done := cassetteTurns(fxs)
	if wait[0] != nil || wait[1] != nil || done[1] != nil || wait[2] != nil {
		t.Errorf("a fixture with no earlier recorder of its cassette waits: %v", wait)
	}
	if wait[3] != done[0] || wait[3] == nil {
		t.Errorf("d.yaml does not wait for a.yaml (same cassette)")
	}
	if wait[4] != done[3] || wait[4] == nil {
		t.Errorf("sub/e.yaml does not wait for d.yaml (../c.yaml is the same file)")
	}
}
