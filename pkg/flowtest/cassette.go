package flowtest

import "kitsoki/pkg/agent"

// loadAgentCassette reads a host_cassette for pkg/agent's cassette
// transport (agent episodes answer agent calls; no plugin starts).
func loadAgentCassette(path string) (*agent.Cassette, error) { return agent.LoadCassette(path) }
