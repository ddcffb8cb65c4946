package agent_test

import (
	"testing"

	"kitsoki/internal/testing/agenttest"
	"kitsoki/pkg/agent"
)

// BenchCase is one transport in BenchmarkDispatch. Other test files of this
// package (bench_transports_test.go: subprocess, mcp_http) append to
// benchCases from an init function; setup returns the fixture whose
// registry serves agenttest.ReferenceAlias.
type benchCase struct {
	name  string
	setup func(b *testing.B) *agenttest.Fixture
}

var benchCases = []benchCase{
	{"inprocess", func(b *testing.B) *agenttest.Fixture {
		fx := agenttest.NewFixture(b, nil, agent.RegistryOptions{Sink: agent.SinkFunc(func(agent.Event) error { return nil })})
		if err := fx.Registry.RegisterInProcess(agenttest.ReferenceAlias, agenttest.EchoAgent(agenttest.ReferenceAlias, agenttest.FaultNone)); err != nil {
			b.Fatal(err)
		}
		return fx
	}},
	{"cassette", func(b *testing.B) *agenttest.Fixture {
		fx := agenttest.NewFixture(b, nil, agent.RegistryOptions{Sink: agent.SinkFunc(func(agent.Event) error { return nil })})
		cas := fx.WriteCassette(b, "ref.cassette.yaml", agenttest.ReferenceCassetteYAML)
		if err := fx.Registry.Register(agenttest.ReferenceAlias, cas.For(agenttest.ReferenceAlias)); err != nil {
			b.Fatal(err)
		}
		return fx
	}},
}

// BenchmarkDispatch measures one full Dispatch of the reference call with
// schema validation on (schemas/echo.json) and a discarding sink.
func BenchmarkDispatch(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			agenttest.BenchDispatch(b, bc.setup(b).Registry, agenttest.ReferenceCall())
		})
	}
}
