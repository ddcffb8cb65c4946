package agent

import (
	"context"
	"fmt"
	"sync"
)

// What a transport learns about a call that the wire answer has no field
// for, written to the call's agent.call.complete or agent.call.error:
// the MCP session that served it (mcp_session_id, to match a trace with
// the server's logs) and the plugin's stray output (stray: a second answer
// to a call, an answer to a call no longer waiting, a line written between
// calls). Every text in it is masked before it is kept.

// maxStray bounds the stray lines kept for one call (and between two
// calls); the rest are counted.
const maxStray = 8

// callNotes is one call's notes; the transport may write them from its own
// goroutine while Dispatch waits, hence the lock.
type callNotes struct {
	mu         sync.Mutex
	mcpSession string
	stray      strayLines
}

// strayLines keeps at most maxStray masked lines and counts the rest.
type strayLines struct {
	lines []string
	more  int // lines past maxStray
}

func (b *strayLines) add(s string) {
	if len(b.lines) < maxStray {
		b.lines = append(b.lines, s)
	} else {
		b.more++
	}
}

type callNotesKey struct{}

// withNotes returns ctx carrying n for the transports of this call.
func withNotes(ctx context.Context, n *callNotes) context.Context {
	return context.WithValue(ctx, callNotesKey{}, n)
}

// notesOf is ctx's call notes; nil (every method a no-op) outside Dispatch.
func notesOf(ctx context.Context) *callNotes {
	n, _ := ctx.Value(callNotesKey{}).(*callNotes)
	return n
}

func (n *callNotes) setMCPSession(id string) {
	if n == nil || id == "" {
		return
	}
	n.mu.Lock()
	n.mcpSession = id
	n.mu.Unlock()
}

// addStray keeps one masked stray description.
func (n *callNotes) addStray(s string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stray.add(s)
}

// take moves p's stray lines (and its count past the bound) into n.
func (n *callNotes) take(p *strayLog) {
	lines, more := p.drain()
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, s := range lines {
		n.stray.add(s)
	}
	n.stray.more += more
}

// fields returns what the trace event carries.
func (n *callNotes) fields() (session string, stray []string) {
	if n == nil {
		return "", nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	stray = append([]string(nil), n.stray.lines...)
	if n.stray.more > 0 {
		stray = append(stray, fmt.Sprintf("... and %d more stray lines", n.stray.more))
	}
	return n.mcpSession, stray
}

// strayLog holds what a plugin wrote between calls until the next call
// takes it; bounded like a call's notes.
type strayLog struct {
	mu sync.Mutex
	strayLines
}

func (p *strayLog) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.strayLines.add(s)
}

func (p *strayLog) drain() ([]string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	lines, more := p.lines, p.more
	p.lines, p.more = nil, 0
	return lines, more
}
