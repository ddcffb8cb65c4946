// Package compose is kitsoki's one composition root: it turns a story path
// into what a run needs ([Load] gives the [Loaded] story, [Resolve] its
// [Plan], [Plan.Build] the [Runtime] with the agent registry, hooks and
// sink), the same way for every command that runs a story. It must not hold
// run logic, flags or output formats: it only builds and closes the parts,
// leaving the turn loop to pkg/engine and the wording of errors to cmd/.
//
// It also holds the adapters between the engine's seams and the transports
// ([RegistryCaller], [AgentSink], [TraceSink], [HostCassette]), so
// pkg/engine touches none of them.
package compose
