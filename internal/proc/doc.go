// Package proc is the process policy of every child kitsoki starts: each
// child leads its own process group (so a stop reaches everything it
// started) and, on Linux, is killed by the kernel when kitsoki dies, even
// by SIGKILL (parent-death signal); Terminate/Kill signal the whole group
// and Stop escalates TERM to KILL after a grace period.
// It does not build commands, choose environments or read output: the
// transports and spawners that call it keep those.
package proc
