package panicked

import (
	"cmp"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"kitsoki/internal/human"
)

// maxValue bounds the panic value in the message.
const maxValue = 200

// Error is a panic turned into the failure of the call it happened in.
// Error() is one line without the stack; the caller writes Stack where a
// report can find it (the trace, stderr) and says where in Report.
type Error struct {
	// Where names the call: a handler ("host.test.panic"), an alias, a
	// hook ("plugin X, hook before_call"), a tool, a request.
	Where string
	// What is the part that panicked in it: "the handler", "the agent
	// transport", "the hook handler", "the tool call".
	What string
	// Value is what was passed to panic.
	Value any
	// Stack is the goroutine's stack where the panic was caught.
	Stack []byte
	// Report is what to send with the report ("" = "the trace").
	Report string
}

// New is the panic value v, caught now in the call where (what panicked:
// what), with the current stack.
func New(where, what string, v any) *Error {
	return &Error{Where: where, What: what, Value: v, Stack: debug.Stack()}
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s panicked: %s (a kitsoki bug: please report it, with %s)",
		e.Where, e.What, human.Clip(strings.ReplaceAll(fmt.Sprint(e.Value), "\n", " "), maxValue), cmp.Or(e.Report, "the trace"))
}

// StderrReport is the Report of a panic whose layer has neither a trace
// nor a logger of its own (the story loader, lint, the view renderer):
// [Logged] wrote its stack to the process's stderr.
const StderrReport = "the stack kitsoki wrote to stderr"

// Logged is [New] with the stack written to w at once, under the message,
// and Report saying so ([StderrReport]): for a layer whose failure is a
// diagnostic or a message, which has no room for a stack. Callers pass
// os.Stderr.
func Logged(w io.Writer, where, what string, v any) *Error {
	e := New(where, what, v)
	e.Report = StderrReport
	_, _ = fmt.Fprintf(w, "kitsoki: %s\n%s\n", e.Error(), e.Stack)
	return e
}
