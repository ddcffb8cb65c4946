// Package proc owns how every child process kitsoki runs is started and
// stopped: [Start] gives it its own process group that dies with kitsoki,
// the environment its [Policy] names ([EnvMinimal] or [EnvInherit] plus
// edits), an optional stdin pipe and stderr [Tail], and a [Process] handle
// whose Stop runs the policy's stop sequence; [Head] keeps the start of an
// output read whole. It must not build commands, speak any protocol or read
// a child's answers: the spawners that call it keep those.
//
// [Process.Stop]: close stdin, wait StdinGrace, SIGTERM to the group, wait
// TermGrace, SIGKILL to the group; a grace of 0 skips its wait (TermGrace 0
// sends no SIGTERM). Whatever ended the leader, the group is killed
// afterwards, so nothing it started survives. [Process.Kill] is the
// immediate form. Each child's group is led by a sentinel sh that kills
// the group when kitsoki dies, SIGKILL included (groupGuard says why one
// per child and not one per kitsoki); without sh the child leads its own
// group, unguarded once kitsoki is gone. Outside Linux there is no
// parent-death signal; outside unix SIGTERM is an interrupt (Windows) or
// a kill.
//
// Each spawner's policy sits next to its spawn code, whose comment gives
// the details.
package proc
