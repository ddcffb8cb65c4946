// Package plugin owns kitsoki's plugin assembly ([Assembly]): the operator
// profile, built-in and external plugin descriptors, resolution and build
// order, the assembly report and the hook [Chain]. It must not dispatch agent
// calls or run host handlers itself: pkg/agent and pkg/engine call its hooks.
//
// In full, it owns kitsoki's plugin assembly: the operator profile
// (.kitsoki/plugins.yaml, found upward from the story, or --profile FILE),
// plugin descriptors (id, summary, provides, requires) for the built-in
// plugins (each agent transport, the trace sink, host.run, the redact and
// budget hook providers) and for external providers discovered under
// .kitsoki/plugins/<dir>/manifest.yaml, resolution (explicit and
// transitive disable with reasons, unknown ids as warnings, build order),
// the assembly report (JSON Schema in assembly.schema.json) and the hook
// chain: waterfall handlers at agent/pre-dispatch, agent/post-return,
// host/pre-call, run/start and run/end that may rewrite the payload or halt.
//
// Layout: descriptor.go (ids and built-ins), profile.go (profile parser,
// positioned errors), manifest.go (external manifests), resolve.go
// (Assemble), report.go (report and diagnostics), hooks.go (Chain),
// redact.go and budget.go (built-in providers), process.go (external hook
// processes: one JSON line per call, lazy spawn, reuse, one respawn,
// per-call timeout, killed on Close), chain.go (Assembly.NewChain: one
// chain per run), agent_hooks.go (the agent.Hooks adapter Dispatch calls,
// HostPreCall for pkg/engine's HostHooks, RunStart/RunEnd), registry.go
// (Assembly.NewRegistry: disabled aliases are refused, never built),
// host_provider.go (external host providers: a manifest's hosts: served
// by one line-JSON child process as host.Handlers), host_registry.go
// (Assembly.HostRegistry: a run's host registry), host_embedder.go (the
// LocalEmbedder behind host.agent.search), host_uses.go (a story's host
// calls and the kitsoki plugins host listing).
//
// The trace plugin is kernel: it cannot be disabled. Disabling host.run
// installs a host/pre-call gate that refuses it. kitsoki validate reports
// profile problems through ProfileDiagnostics.
//
// The operator profile is trusted and fails loudly: a malformed profile is
// an error naming file, line and column. Third-party manifests are not: a
// malformed one is skipped with a warning and never stops a run. Installing
// an external plugin is code execution with kitsoki's privileges.
//
// What this package must not do: import pkg/engine, pkg/trace or cmd (hook
// outcome events leave through the emit function the caller passes), print,
// or let a resolved secret (an env var value named by redact) reach a
// report, an event or an error.
package plugin
