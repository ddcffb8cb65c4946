// Package plugin owns kitsoki's plugin assembly ([Assembly]): the operator
// profile, built-in and external plugin descriptors, resolution and build
// order, the assembly report and the hook [Chain]. It must not dispatch agent
// calls or run host handlers itself: pkg/agent and pkg/engine call its hooks.
//
// The profile is layers merged ([Layer], [Options]): every
// .kitsoki/plugins.yaml found upward from the story ([FindProfiles]), the
// user's profile ([UserProfile]), then --profile FILE; what one layer
// disables no other enables again, so an operator's profile holds over a
// repository's. External providers are discovered under
// .kitsoki/plugins/<dir>/manifest.yaml beside the nearest .kitsoki directory
// and beside --profile. Options.Sandbox disables every external plugin (no
// process starts: kitsoki test --sandbox, or [SandboxEnv] as [SandboxMode]
// reads it; [Assembly.NotStarted] lists them); Options.MinimalEnv starts their
// processes without kitsoki's environment (kitsoki test). Hooks are
// waterfall handlers at each [Point] (agent/pre-dispatch,
// agent/post-return, host/pre-call, run/start, run/end) that may rewrite
// the payload or halt. The trace plugin is kernel
// and cannot be disabled; disabling host.run installs a host/pre-call gate
// that refuses it and replaces it, host.git, host.git_worktree,
// host.local and host.workspace_manager.get in the run's registry by their
// refusal ([Assembly.DisabledHost]). The profile is trusted and fails
// loudly (file, line, column); a malformed third-party manifest is skipped with a warning.
// Installing an external plugin is code execution with kitsoki's privileges.
//
// The package never imports pkg/engine, pkg/trace or cmd (hook outcome
// events leave through the emit function the caller passes), never prints,
// and lets no resolved secret reach a report, an event or an error.
//
// Layout: descriptor.go (ids, built-ins), profile.go and layers.go (the
// profile), manifest.go, resolve.go ([Assemble]), report.go, hooks.go and
// chain.go (the hook chain), process.go (an external plugin's process,
// serving its hooks or its host handlers), agent_hooks.go (the
// agent.Hooks adapter), host_*.go (host providers), sandbox.go (--sandbox
// from the environment).
package plugin
