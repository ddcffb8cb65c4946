package main

import (
	"math/rand/v2"
	"path"
	"slices"
	"strings"
)

// -bindings (flow, legacy, agent and host kinds) gives the fixtures
// host_bindings, after every other draw and from its own random source
// (so a seed writes the same story otherwise): built-ins bound to
// themselves (host.run, host.artifacts_dir, agent verbs) or to other
// built-ins, iface-like keys the story does not declare, a name bound to
// no handler, an empty map, on fixtures fed by stubs, by a host cassette
// (whose misses the real handler then answers) or by nothing; the agent
// kind gets a fixture of its own with bindings alone (real agents answer
// every verb). Half the stories ship bin/claude, a stand-in for the
// claude CLI (golden host-bindings-real-agent) whose answer is drawn (a
// result, is_error, a failing exit, bad JSON) and which logs one line
// per call to claude.calls beside app.yaml; compare.sh puts a story's
// bin/ on PATH. Without it the real agents find no claude (golden
// host-bindings-no-claude).
type bindGen struct {
	*gen
}

func newBindGen(seed uint64) *bindGen {
	return &bindGen{&gen{rnd: rand.New(rand.NewPCG(seed^0x3c6ef372fe94f82b, seed+0xa54ff53a5f1d36f1))}}
}

// bindingMap is one fixture's host_bindings.
func (b *bindGen) bindingMap() m {
	switch b.rnd.IntN(12) {
	case 0, 1:
		return m{"host.run": "host.run"}
	case 2:
		return m{"host.agent.ask": "host.agent.ask"}
	case 3:
		return m{"host.agent.decide": "host.agent.decide", "host.run": "host.run"}
	case 4:
		// an agent verb bound to another
		return m{"host.agent.decide": "host.agent.ask", "host.agent.task": "host.agent.converse"}
	case 5:
		return m{"host.run": "host.inbox.add"}
	case 6:
		// iface-like keys no story declares
		return m{"transport": "host.transport.post", "vcs": "host.git"}
	case 7:
		return m{"rev": "host.agent"}
	case 8:
		return m{"host.artifacts_dir": "host.artifacts_dir"}
	case 9:
		return m{"nope": "host.nope"}
	case 10:
		return m{}
	}
	return m{"host.agent": "host.agent", "claude": "host.agent.ask"}
}

// claudeStandIn is bin/claude: a stand-in for the claude CLI that reads
// its input, logs the call beside app.yaml and answers one drawn way.
func (b *bindGen) claudeStandIn() string {
	var answer string
	switch b.rnd.IntN(6) {
	case 0, 1:
		answer = `echo '{"type":"result","subtype":"success","is_error":false,"result":"{\"answer\":\"ok\",\"decision\":\"yes\",\"confidence\":0.9}","total_cost_usd":` + b.pick("0", "0.25") + `}'`
	case 2:
		answer = `echo '{"type":"result","subtype":"success","is_error":false,"result":"plain words","total_cost_usd":0}'`
	case 3:
		answer = `echo '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"it broke","total_cost_usd":0}'`
	case 4:
		answer = "echo 'claude: failed' >&2\nexit 1"
	default:
		answer = "echo '{not json'"
	}
	return "#!/bin/sh\n# STAND-IN for the claude CLI (the real one cannot run on test machines).\n" +
		`echo call >> "$(dirname "$0")/../claude.calls"` + "\ncat > /dev/null\n" + answer + "\n"
}

// apply gives the fixtures among files host_bindings (most of them),
// adds extra fixtures (fixtures with bindings alone) and, for half the
// stories, the claude stand-in.
func (b *bindGen) apply(files []agentFile, extra ...agentFile) []agentFile {
	files = append(files, extra...)
	for _, f := range files {
		fx, ok := f.body.(m)
		if !ok || !isFixture(f.name) {
			continue
		}
		if b.chance(85) || slices.ContainsFunc(extra, func(e agentFile) bool { return e.name == f.name }) {
			fx["host_bindings"] = b.bindingMap()
		}
	}
	if b.chance(50) {
		files = append(files, agentFile{"bin/claude", b.claudeStandIn()})
	}
	return files
}

// isFixture reports a flow fixture's file (flows/*.yaml, not a cassette).
func isFixture(name string) bool {
	name = strings.ReplaceAll(name, "\\", "/")
	dir, base := path.Split(name)
	return dir == "flows/" && strings.HasSuffix(base, ".yaml")
}
