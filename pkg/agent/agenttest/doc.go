// Package agenttest owns the test support shared by pkg/agent's transport
// tests: [RecordingSink], the conformance [ReferenceCall], the in-process
// [EchoAgent] whose [Fault] modes the out-of-process test plugins mirror, and
// [Fixture]. It must not be imported outside tests.
//
// In full, it holds test support shared by every transport test of
// pkg/agent: a recording Sink, the conformance reference request and
// submission of agent-contract.md §11, an in-process echo/fault agent whose
// behaviour the out-of-process test plugins mirror mode for mode, and a
// Fixture that builds a throw-away story directory (schemas/ included), a
// Registry and a recording sink in one call.
//
// It is test support only: nothing outside tests may import it.
package agenttest
