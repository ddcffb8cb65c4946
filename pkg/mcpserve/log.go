package mcpserve

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// stackKey is the attribute a caught panic's log record carries its stack
// under ([Server.logPanic]).
const stackKey = "stack"

// Logger is the logger of kitsoki mcp serve, writing to w (its stderr)
// the records at level or above: slog's text lines, except that a record's
// stack (a caught panic's) follows its line as the stack itself, one line
// of it a line, indented, for a human to read; slog's text format would
// put it on the record's one line with every newline escaped. The record's
// own line stays one line, as a log reader expects.
func Logger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(&stackHandler{Handler: slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}), w: w, mu: &sync.Mutex{}})
}

// stackHandler is [Logger]'s handler: the text handler's line, then the
// record's stack; mu keeps the two together when goroutines log at once.
type stackHandler struct {
	slog.Handler
	w  io.Writer
	mu *sync.Mutex
}

func (h *stackHandler) Handle(ctx context.Context, r slog.Record) error {
	var stack string
	line := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == stackKey && a.Value.Kind() == slog.KindString {
			stack = a.Value.String()
			a = slog.String(stackKey, "below")
		}
		line.AddAttrs(a)
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.Handler.Handle(ctx, line); err != nil || stack == "" {
		return err
	}
	var b strings.Builder
	for l := range strings.Lines(strings.TrimRight(stack, "\n")) {
		b.WriteString("    ")
		b.WriteString(strings.TrimRight(l, "\n"))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *stackHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &stackHandler{Handler: h.Handler.WithAttrs(as), w: h.w, mu: h.mu}
}

func (h *stackHandler) WithGroup(name string) slog.Handler {
	return &stackHandler{Handler: h.Handler.WithGroup(name), w: h.w, mu: h.mu}
}
