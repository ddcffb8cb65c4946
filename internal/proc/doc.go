// Package proc is the process policy of every child kitsoki starts: its own
// process group, on Linux death with kitsoki (parent-death signal), the
// environment it sees ([MinimalEnv] or [FullEnv]), the stderr [Tail] quoted
// when it fails, and the stop ([Terminate], [Kill], [Stop]: TERM, then KILL
// after a grace period, for the whole group). It must not build commands,
// speak any protocol or read a child's answers: the transports and
// spawners that call it (pkg/agent's subprocess and claude_cli, pkg/plugin's
// hook and host-provider processes, pkg/sidecar) keep those.
//
// [Prepare] applies the group and parent-death policy to an exec.Cmd before
// Start and keeps any SysProcAttr fields the caller set. Outside Linux there
// is no parent-death signal; the process group lets a stop reach the child
// and everything it started.
package proc
