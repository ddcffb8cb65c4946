package proc

import "time"

// Policy is how one kind of child is started and stopped. Each spawner
// keeps its Policy in one named value next to its spawn code.
type Policy struct {
	// Env is the environment the child sees. [Start] builds it from
	// os.Environ(); a cmd with Env already set is refused.
	Env Env

	// StdinPipe opens a pipe to the child's stdin ([Process.Stdin]); a stop
	// closes it first. Without it cmd.Stdin is used as given.
	StdinPipe bool

	// StderrTail is how many bytes of the child's stderr [Process.Tail]
	// keeps for error messages; 0 keeps none. Stderr still reaches
	// cmd.Stderr when that is set.
	StderrTail int
	// TailStdout sends stdout to the tail too (combined output), when
	// cmd.Stdout is nil.
	TailStdout bool

	// StdinGrace is how long [Process.Stop] waits for the child to exit
	// after its stdin was closed, before SIGTERM; 0 goes straight on.
	StdinGrace time.Duration
	// TermGrace is how long [Process.Stop] waits after SIGTERM to the
	// process group before SIGKILL; 0 sends no SIGTERM (SIGKILL at once).
	TermGrace time.Duration

	// WaitDelay bounds how long Wait waits for the child's output to be
	// copied once it exited (exec.Cmd.WaitDelay): a grandchild holding
	// stdout cannot block a caller for ever. 0 waits as long as it takes.
	WaitDelay time.Duration
}

// Outcome says what ended a child, as [Process.Stop] saw it.
type Outcome int

const (
	// Exited: the child had exited before the stop began.
	Exited Outcome = iota
	// ExitedOnStdinClose: it exited within StdinGrace of its stdin closing.
	ExitedOnStdinClose
	// ExitedOnTerm: it exited within TermGrace of SIGTERM.
	ExitedOnTerm
	// Killed: it was killed (SIGKILL to its group).
	Killed
)

func (o Outcome) String() string {
	switch o {
	case ExitedOnStdinClose:
		return "exited when its stdin closed"
	case ExitedOnTerm:
		return "exited on SIGTERM"
	case Killed:
		return "killed"
	}
	return "had exited"
}
