// Package host owns the host handlers a story's invoke: effects call
// ([Handler], [Call], [Result]) and the [Registry] that finds one by exact
// name or longest dotted prefix, filled by [Builtins]. It must not
// import pkg/engine, the agent transports or pkg/trace: the engine hands it
// a [Call] and records what comes back, and the agent verbs ([IsAgentVerb])
// stay in pkg/agent.
//
// A Go error from Handler.Call is an infrastructure failure; a domain failure
// (bad arguments, a script fail(), a non-zero exit with fail_on_error) is
// Result.Error, so the story's on_error applies. host.agent.search is the one
// agent verb served here, over the small [Embedder] interface.
//
// Layout: host.go (Call, Result, Handler, Env, Services), registry.go,
// builtins.go, agent_verbs.go (the agent verbs the engine routes itself),
// run.go (host.run), stdoutjson.go, artifacts.go, appendfile.go,
// writebudget.go (the byte budget of their writes under --sandbox), inbox.go
// (inbox, transport, jobs), workdir.go (every story-named path confined to
// the run's working directory), fileroot.go (the os.Root each file built-in
// opens per call on the directory it is confined to, every stat, read,
// mkdir and write after the check going through it), starlark_*.go (host.starlark.run), search.go
// (with an on-disk vector cache) and glob.go (its corpus globs), sandbox.go
// ([SandboxSafe], [SandboxOptions]: what kitsoki test --sandbox runs),
// local_tickets.go (host.local_files.ticket; frontmatter_style.go, the front matter scalars as upstream writes them), local_ci.go (host.local) and
// git_ops.go (host.git) and git_worktree.go (host.git_worktree), which run go and git through
// progrun.go, as workspace_manager.go (host.workspace_manager.get) runs workspace-manager, and the built-ins answering as upstream does without their
// program: clitool.go (host.gh.ticket, host.cypilot_artifacts),
// slidey_render.go, contact_sheet.go, video_frame.go, and diff_open.go.
// Upstream choices: docs/compat/hosts.md.
package host
