// Package compose is kitsoki's one composition root: it turns a story path
// into what a run needs ([Load] gives the [Loaded] story, [Resolve] its
// [Plan], [Plan.Build] the [Runtime] with the agent registry, hooks and
// sink), the same way for every command that runs a story. It must not hold
// run logic, flags or output formats: it only builds and closes the parts,
// leaving the turn loop to pkg/engine and the wording of errors to cmd/.
//
// It also holds the adapters between the engine's seams and the
// transports (adapters.go): [RegistryCaller] answers the engine's agent
// calls through the agent registry, [AgentSink] forwards the registry's
// events into the run's sink, [TraceSink] writes a run's events to a trace
// file, and [HostCassette] (hostcassette.go) is the engine's
// [engine.HostReplay] read from a `kind: host_cassette` file (trace-eval.md
// part B), so pkg/engine touches none of them.
//
// kitsoki run, test, eval run and mcp serve all build through it, so the
// operator's profile layers hold the same way for all four
// ([ResolveOptions]: Sandbox and MinimalEnv for kitsoki test). Layout:
// compose.go (Load, Resolve, Build), dispatch.go ([ResolveWith],
// [Plan.BuildWith] and [DispatchOptions]: the extras of eval and mcp serve;
// [Plan.Refuse]; every registry gets builtin.local_llm's builder from
// pkg/agent/localllm, which the contract package does not import),
// matrix.go ([Matrix]: an eval's registry per candidate under one hook
// chain).
package compose
