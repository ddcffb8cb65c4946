// Package proc owns how every child process kitsoki runs is started and
// stopped: [Start] gives it its own process group, on Linux death with
// kitsoki (parent-death signal), the environment its [Policy] names
// ([EnvMinimal] or [EnvInherit] plus edits), an optional stdin pipe and
// stderr [Tail], and a [Process] handle whose Stop runs the policy's stop
// sequence. It must not build commands, speak any protocol or read a
// child's answers: the spawners that call it (pkg/agent's subprocess and
// claude_cli transports, pkg/plugin's hook and host-provider processes,
// pkg/sidecar's llama-server, pkg/host's host.run) keep those.
//
// The stop sequence ([Process.Stop]) is: close stdin, wait StdinGrace,
// SIGTERM to the group, wait TermGrace, SIGKILL to the group; a wait whose
// grace is 0 is skipped (TermGrace 0 sends no SIGTERM). Whatever ended the
// leader, the group is killed afterwards, so nothing it started survives
// it. [Process.Kill] is the immediate form, used when a child failed or a
// call's deadline passed. Start reaps the child; a context that ends runs
// Stop.
//
// The policy of each spawner, one named value next to its spawn code
// (stop: the graces of Stop; kill: when the spawner kills at once):
//
//   - pkg/agent subprocess (subprocessPolicy): EnvMinimal + env:; stdin
//     pipe; stderr to the agent's redacting 8 KiB tail; stop (Close):
//     stdin closed and SIGTERM at once, SIGKILL after 2 s; WaitDelay 1 s;
//     kill: a crash, a protocol break, a call's deadline.
//   - pkg/agent claude_cli (claudePolicy): EnvInherit + env:; the prompt on
//     stdin; stderr as above; stop = kill (no graces): a call's deadline,
//     Close; WaitDelay 1 s.
//   - pkg/plugin hook and host-provider processes (childPolicy):
//     EnvInherit; stdin pipe; 4 KiB stderr tail; stop (Close): stdin
//     closed, 500 ms, SIGKILL (no SIGTERM: the protocol's stop is the end
//     of stdin); kill: a timeout, a bad answer, a dead child.
//   - pkg/sidecar llama-server (serverPolicy): EnvInherit + Config.Env, the
//     library directory first on LD_LIBRARY_PATH (Linux); 8 KiB tail of
//     stdout and stderr together; stop: SIGTERM, SIGKILL after
//     Config.StopGrace (5 s); WaitDelay 2 s; kill: after a crash (the
//     group's leftovers).
//   - pkg/host host.run (runPolicy): EnvInherit, kitsoki's directory first
//     on PATH, then with.env by key (a story's PATH replaces it); with.stdin
//     as given; no tail (host.run keeps the first 4 MiB of output itself);
//     stop = kill when the call's context ends (cancel, timeout); WaitDelay
//     2 s.
//
// The agent transports keep their own stderr writer (a redacting,
// line-logging wrapper around a [Tail]) as cmd.Stderr, so their policies
// keep no second tail. Outside Linux there is no parent-death signal; the
// process group lets a stop reach the child and everything it started.
// Outside unix, SIGTERM is an interrupt (Windows) or a kill.
package proc
