// Package host owns the host handlers a story's invoke: effects call
// ([Handler], [Call], [Result]) and the [Registry] that finds one by exact
// name or longest dotted prefix, filled by [RegisterBuiltins]. It must not
// import pkg/engine, the agent transports or pkg/trace: the engine hands it
// a [Call] and records what comes back, and the agent verbs ([IsAgentVerb])
// stay in pkg/agent.
//
// In full, it owns the host handlers a story's invoke: effects call
// (host.run, host.artifacts_dir, host.inbox.add, host.starlark.run, ...) and
// the registry that finds one by exact name or longest dotted prefix.
//
// It must not import the engine, the agent transports or the trace writer:
// the engine hands it a Call and records what comes back; agent verbs
// (host.agent.<verb>, except search) stay in pkg/agent; the embedder
// host.agent.search uses arrives as the small Embedder interface.
//
// Layout: host.go (Call, Result, Handler, Env, Services), registry.go
// (Registry with origins), builtins.go (Builtins / RegisterBuiltins),
// missing.go (the before-the-run check of a story's calls), run.go and
// procgroup_*.go (host.run), stdoutjson.go (trailing JSON of an output),
// artifacts.go, appendfile.go, inbox.go (inbox, transport, jobs), workdir.go
// (confinement of every story-named path to the run's working directory),
// starlark_*.go (host.starlark.run: sidecar, http/inspect cassettes and
// http recording, ctx, conversion, load()),
// search.go (host.agent.search over an embedder, with an on-disk vector
// cache). Upstream behaviours chosen deliberately are in docs/compat/hosts.md.
//
// A Go error from Handler.Call is an infrastructure failure; a domain
// failure (bad arguments, a script fail(), a non-zero exit with
// fail_on_error) is Result.Error, so the story's on_error applies.
package host
