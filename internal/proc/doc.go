// Package proc owns how every child process kitsoki runs is started and
// stopped: [Start] gives it its own process group, on Linux death with
// kitsoki (parent-death signal) and on unix the death of its whole group
// with kitsoki while it runs (a sentinel in the group), the environment its [Policy] names
// ([EnvMinimal] or [EnvInherit] plus edits), an optional stdin pipe and
// stderr [Tail], and a [Process] handle whose Stop runs the policy's stop
// sequence; [Head] keeps the start of an output read whole (the claude
// CLI's stdout, host.run's output). It must not build commands, speak any protocol or read a
// child's answers: the spawners that call it (internal/childproc for
// pkg/agent's subprocess transport and pkg/plugin's hook and host-provider
// processes, pkg/agent's claude_cli, pkg/sidecar's llama-server, pkg/host's
// host.run, pkg/graph's dot) keep those.
//
// [Process.Stop]: close stdin, wait StdinGrace, SIGTERM to the group, wait
// TermGrace, SIGKILL to the group; a grace of 0 skips its wait (TermGrace 0
// sends no SIGTERM). Whatever ended the leader, the group is killed
// afterwards, so nothing it started survives. [Process.Kill] is the
// immediate form (a failed child, a passed deadline). Start reaps the child;
// a context that ends runs Stop. Outside Linux there is no parent-death
// signal; outside unix SIGTERM is an interrupt (Windows) or a kill.
//
// Each spawner's policy is one named value next to its spawn code, whose
// comment gives the details (stop = kill: no graces):
//
//	agent subprocess  subprocessPolicy  EnvMinimal + env:; SIGTERM as stdin closes, SIGKILL after 2 s
//	agent claude_cli  claudePolicy      EnvInherit + env:; stop = kill
//	plugin processes  childPolicy       EnvInherit (EnvMinimal under kitsoki test); stdin closed,
//	                                    SIGKILL after 500 ms (no SIGTERM)
//	sidecar           serverPolicy      EnvInherit + Config.Env, lib dir first on LD_LIBRARY_PATH;
//	                                    SIGTERM, SIGKILL after Config.StopGrace
//	host.run          runPolicy         EnvInherit, kitsoki's dir first on PATH, then with.env;
//	                                    stop = kill when the call's context ends
//	graph --format svg dotPolicy       EnvInherit (Graphviz's fonts and config); DOT on stdin;
//	                                    stop = kill when the context ends or the SVG passes its cap
//
// The long-lived children that answer requests (agent subprocess plugins,
// hook processes, host providers) are started by internal/childproc's
// client, and claude_cli by its transport; they pass a redacting
// childproc.Stderr (around a [Tail]) as cmd.Stderr, so their policies keep
// no second tail.
package proc
