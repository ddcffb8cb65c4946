package childproc

import (
	"errors"
	"strings"

	"kitsoki/internal/human"
)

// Failure says why a call to a child failed.
type Failure int

const (
	// Start: the child could not be started.
	Start Failure = iota + 1
	// Write: the request could not be written to the child's stdin.
	Write
	// Exited: the child closed its stdout (or exited) before answering.
	Exited
	// Partial: the child stopped in the middle of an answer line.
	Partial
	// TooLarge: the child wrote a line over [MaxFrame], or one that would
	// take over jsoncost's limit once decoded as JSON.
	TooLarge
	// Protocol: the caller's decoder rejected the answer as [Fatal].
	Protocol
	// Timeout: no answer within [Config.Timeout].
	Timeout
	// Canceled: the caller's context ended first (before the request was
	// sent, while waiting for the previous call, or before the answer).
	Canceled
	// Closed: the client was closed (before or during the call).
	Closed
)

// Error is a failed call: "<who> <what>", then what became of the child
// (its exit status, or that kitsoki killed its process group, and that the
// next call starts a new one) and the end of its stderr. Every piece the
// child wrote was redacted before it got here.
type Error struct {
	Who     string
	Failure Failure
	What    string
	// Status is what ended the child ("exit status 3", "its process group
	// was killed"); "" when the child lives on or never started.
	Status string
	// Stderr is the redacted end of the child's stderr; Started says
	// whether there was a child to have one.
	Stderr  string
	Started bool
	// Err is the cause: the start or write error, the decoder's error, the
	// context's cause.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Who)
	b.WriteByte(' ')
	b.WriteString(e.What)
	if e.Status != "" {
		b.WriteString("; ")
		b.WriteString(e.Status)
		b.WriteString("; the next call starts a new process")
	}
	if e.Started {
		if e.Stderr == "" {
			b.WriteString("; stderr: (empty)")
		} else {
			b.WriteString("; stderr (last " + human.Size(stderrTailBytes) + "):\n")
			b.WriteString(e.Stderr)
		}
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Gone reports whether the child was gone rather than misbehaving: it had
// exited, closed its stdout or could not be written to. A caller whose
// protocol allows it may repeat the call once on a new child.
func (e *Error) Gone() bool { return e.Failure == Write || e.Failure == Exited }

// fatal marks a decoder's error as a protocol fault.
type fatal struct{ err error }

func (f fatal) Error() string { return f.err.Error() }
func (f fatal) Unwrap() error { return f.err }

// Fatal marks err, returned by a [Request]'s Decode, as a broken protocol:
// the child is killed and the call fails with [Protocol], whose What is
// err's text. A decoder error not marked Fatal keeps the child and is
// returned as it is.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return fatal{err}
}

// errSkip is [Skip]'s mark.
var errSkip = errors.New("not this call's answer")

// Skip, returned by a [Request]'s Decode, says the line is not the answer
// to this call (a second reply to an earlier request, a notification): the
// call goes on waiting for its answer and the child is kept. The decoder
// reports the line itself; Skip only steers the wait.
func Skip() error { return errSkip }
