package host

// SandboxSafe reports whether the built-in handler name may run on
// untrusted code (kitsoki test --sandbox) when registered with
// [SandboxOptions]: it runs in process, starts no process, reaches no
// network and touches files only inside the story (host.starlark.run's
// ctx.fs) or the run's working directory (host.append_to_file,
// host.artifacts_dir, host.local_files.ticket). The CLI-backed built-ins (host.gh.ticket,
// host.cypilot_artifacts, host.slidey.render, host.contact_sheet,
// host.video.frame) and host.diff.open start nothing in kitsoki, so they
// are. host.run starts a program, so it is not, nor are host.local,
// host.git, host.git_worktree and host.workspace_manager.get; neither is any name that is
// not a built-in (a host provider is a process).
func SandboxSafe(name string) bool {
	switch name {
	case HandlerInboxAdd, HandlerTransportPost, HandlerJobsAnswer, HandlerAppendToFile,
		HandlerArtifactsDir, HandlerStarlarkRun, HandlerAgentSearch, HandlerLocalTickets,
		HandlerGHTicket, HandlerCypilotArtifacts, HandlerDiffOpen, HandlerSlideyRender, HandlerContactSheet, HandlerVideoFrame:
		return true
	}
	return false
}

// SandboxOptions is o made safe for untrusted code: host.starlark.run
// without network (its ctx.http answers only from a cassette),
// host.agent.search without an embedder (a call is a domain error, no
// sidecar starts), and no environment read (KITSOKI_ARTIFACTS_ROOT cannot
// move host.artifacts_dir out of the working directory), and file writes
// within [DefaultSandboxWriteBudget] (a caller's smaller budget is kept).
func SandboxOptions(o Options) Options {
	o.Starlark.NoNetwork = true
	o.Search = SearchOptions{}
	o.Getenv = func(string) string { return "" }
	if o.WriteBudget <= 0 || o.WriteBudget > DefaultSandboxWriteBudget {
		o.WriteBudget = DefaultSandboxWriteBudget
	}
	return o
}
