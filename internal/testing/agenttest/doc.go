// Package agenttest owns the test support shared by pkg/agent's transport
// tests: [RecordingSink], the conformance [ReferenceCall], the in-process
// [EchoAgent] whose [Fault] modes the out-of-process test plugins mirror,
// [StubAgent] (agent.claude's stand-in), [Fixture] and [BenchDispatch]. It
// must not be imported outside tests.
//
// The reference call and its submission are those of agent-contract.md §11.
// [NewFixture] builds a throw-away story directory (schemas/ included), a
// Registry and a recording sink in one call.
package agenttest
