package panicked

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The engine's wording is the one kept: a handler's panic reads as it did
// (cmd's handler panic test pins it through kitsoki test).
func TestWording(t *testing.T) {
	e := &Error{Where: "host.boom", What: "the handler", Value: "kaboom"}
	if got, want := e.Error(), "host.boom: the handler panicked: kaboom (a kitsoki bug: please report it, with the trace)"; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	e.Report = "the stack on stderr"
	if got := e.Error(); !strings.HasSuffix(got, "with the stack on stderr)") {
		t.Fatalf("Report not used: %s", got)
	}
	e.Value = "line one\nline two"
	if got := e.Error(); strings.Contains(got, "\n") {
		t.Fatalf("not one line: %q", got)
	}
	e.Value = strings.Repeat("x", maxValue+50)
	if got := e.Error(); strings.Contains(got, strings.Repeat("x", maxValue+1)) || !strings.Contains(got, "…") {
		t.Fatalf("a long value is not clipped: %q", got)
	}
}

func TestNew(t *testing.T) {
	call := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = New("tool kitsoki_a_ask", "the tool call", p)
			}
		}()
		var s []int
		return fmt.Errorf("unreachable: %d", s[len(s)]) // a real runtime panic
	}
	err := call()
	pe, ok := errors.AsType[*Error](err)
	if !ok {
		t.Fatalf("got %v, want a *panicked.Error", err)
	}
	if !strings.Contains(pe.Error(), "tool kitsoki_a_ask: the tool call panicked: runtime error: index out of range") {
		t.Fatalf("message: %s", pe.Error())
	}
	if !strings.Contains(string(pe.Stack), "TestNew") {
		t.Fatalf("the stack does not show the panicking function:\n%s", pe.Stack)
	}
}

// Logged writes the message and the stack where it is told, and its
// message says where the stack went.
func TestLogged(t *testing.T) {
	var w strings.Builder
	e := Logged(&w, "loading the story", "the loader", "boom")
	if got, want := e.Error(), "loading the story: the loader panicked: boom (a kitsoki bug: please report it, with the stack kitsoki wrote to stderr)"; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !strings.HasPrefix(w.String(), "kitsoki: "+e.Error()+"\n") || !strings.Contains(w.String(), "TestLogged") {
		t.Fatalf("stderr:\n%s", w.String())
	}
}
