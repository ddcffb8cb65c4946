// Package host owns the host handlers a story's invoke: effects call
// (host.run, host.artifacts_dir, host.inbox.add, host.starlark.run, ...) and
// the registry that finds one by exact name or longest dotted prefix.
//
// It must not import the engine, the agent transports or the trace writer:
// the engine hands it a Call and records what comes back; agent verbs
// (host.agent.<verb>) stay in pkg/agent.
package host
