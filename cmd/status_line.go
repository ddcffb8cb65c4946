package cmd

import (
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// statusLine is the terminal line the spinner and the fetch display redraw
// in place. Hold mu around the Locked methods.
type statusLine struct {
	w     io.Writer
	mu    sync.Mutex
	drawn bool // the line is on the terminal's current line
}

// clearLocked erases the line, if one is drawn.
func (l *statusLine) clearLocked() {
	if l.drawn {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.drawn = false
	}
}

func (l *statusLine) drawLocked(line string) {
	fmt.Fprint(l.w, "\r\x1b[K"+fitWidth(l.w, line))
	l.drawn = true
}

// redrawable reports whether w is a terminal that understands carriage
// return + erase line.
func redrawable(w io.Writer) bool {
	return isTerminal(w) && os.Getenv("TERM") != "dumb"
}

// fitWidth cuts line to the terminal's width less one column: a wrapped
// line could not be erased.
func fitWidth(w io.Writer, line string) string {
	cols := termCols(w)
	if cols <= 1 {
		return line
	}
	if r := []rune(line); len(r) > cols-1 {
		return string(r[:cols-1])
	}
	return line
}

// termCols is the terminal's width in columns, 0 when w is no terminal.
func termCols(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}
