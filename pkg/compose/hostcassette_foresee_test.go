package compose

import "testing"

// TestForesee: Foresee tells the answer Replay gives only when no earlier
// play and no unknown key can change it.
func TestForesee(t *testing.T) {
	hc, err := parseHostCassette("c.yaml", []byte(`kind: host_cassette
episodes:
  - id: once
    match: {handler: host.run, call: a}
    response: {data: {v: once}}
  - id: phased
    match: {handler: host.run, call: b, phase: p}
    response: {data: {v: phased}}
  - id: keyed
    match: {handler: host.run, cmd: x}
    response: {data: {v: keyed}}
    replay: any
  - id: infra
    match: {handler: host.git, op: push}
    response: {infra_error: down}
    replay: any
`), true)
	if err != nil {
		t.Fatal(err)
	}
	all := func(string) bool { return true }
	for _, c := range []struct {
		name, handler string
		args          map[string]any
		known         func(string) bool
		want, failure string
		ok            bool
	}{
		{"an earlier episode certainly differs", "host.run", map[string]any{"call": "z", "cmd": "x"}, all, "keyed", "", true},
		{"the one matching plays once", "host.run", map[string]any{"call": "a", "cmd": "x"}, all, "", "", false},
		{"a phase is never certain", "host.run", map[string]any{"call": "b", "cmd": "x"}, all, "", "", false},
		{"an unknown key leaves it open", "host.run", map[string]any{"call": "z", "cmd": "x"}, func(k string) bool { return k != "call" }, "", "", false},
		{"no episode matches", "host.run", map[string]any{"call": "z", "cmd": "y"}, all, "", "cassette miss", true},
		{"a prefix handler's op", "host.git.push", nil, all, "", "down", true},
		{"a handler no episode names", "host.other", nil, all, "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, failure, ok := hc.Foresee(c.handler, c.args, c.known)
			if ok != c.ok || failure != c.failure || (c.want != "" && rep.Data["v"] != c.want) {
				t.Fatalf("Foresee = %v, %q, %v; want v %q, %q, %v", rep.Data, failure, ok, c.want, c.failure, c.ok)
			}
		})
	}
}
