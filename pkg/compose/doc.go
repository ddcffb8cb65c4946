// Package compose is kitsoki's one composition root: it turns a story path
// into what a run needs ([Load] gives the [Loaded] story, [Resolve] its
// [Plan], [Plan.Build] the [Runtime] with the agent registry, hooks and
// sink), the same way for every command that runs a story. It must not hold
// run logic, flags or output formats: it only builds and closes the parts,
// leaving the turn loop to pkg/engine and the wording of errors to cmd/.
//
// In full, it is kitsoki's one composition root: it turns a story path
// into what a run needs (the loaded story, the compiled machine, the plugin
// assembly, the agent registry with its hooks, the sink), the same way for
// kitsoki run, kitsoki test, kitsoki eval run and kitsoki mcp serve.
//
// It must not hold run logic, flags or output formats: it only builds and
// closes the parts, leaving the turn loop to pkg/engine and the wording of
// errors to cmd/.
//
// Layout: compose.go (Load, Resolve, Build: a run's parts), dispatch.go
// (ResolveWith, BuildWith and DispatchOptions: every registry a plan
// builds, with the extras of eval and mcp serve; Refuse), matrix.go (an
// eval's registry per candidate under one hook chain), load_strict.go
// (LoadStrict for mcp serve), adopt.go (a story another loader read).
package compose
