package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruption is the cause of a context stopContext cancelled: the
// signal that arrived (Ctrl-C's SIGINT, or SIGTERM).
type interruption struct{ sig os.Signal }

func (i *interruption) Error() string { return "interrupted by " + i.name() }

// Unwrap makes the cause a context.Canceled, as the context's Err is:
// code that checks errors.Is(err, context.Canceled) on an error carrying
// the cause sees a cancelled context.
func (i *interruption) Unwrap() error { return context.Canceled }

// name is the signal as a user knows it: "Ctrl-C (SIGINT)" or "SIGTERM".
func (i *interruption) name() string {
	if i.sig == os.Interrupt {
		return "Ctrl-C (SIGINT)"
	}
	return "SIGTERM"
}

// code is the exit status shells report for a process the signal ended:
// 128 + its number (130 for SIGINT, 143 for SIGTERM).
func (i *interruption) code() int {
	if s, ok := i.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// stopContext is ctx cancelled by Ctrl-C (SIGINT) or SIGTERM, with the
// signal as its cause ([interruptedBy]). Only the first signal is caught:
// a second Ctrl-C ends kitsoki at once, as a user pressing it again means.
func stopContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-sigs:
			cancel(&interruption{sig: s})
		case <-ctx.Done():
		}
		signal.Stop(sigs)
	}()
	return ctx, func() { signal.Stop(sigs); cancel(context.Canceled) }
}

// interruptedBy returns the signal that cancelled ctx (stopContext's),
// or nil when none did.
func interruptedBy(ctx context.Context) *interruption {
	i, _ := errors.AsType[*interruption](context.Cause(ctx))
	return i
}

// interruptedError is the exit error of a command i stopped: one line
// saying what was interrupted and what became of its work (done), and
// 128 + the signal's number.
func interruptedError(i *interruption, what, done string) error {
	return &exitError{code: i.code(), err: fmt.Errorf("%s %s: %s", what, i, done)}
}
