package mcpserve

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// connLimit is a listener that keeps at most max connections open: one
// more is answered "503 Service Unavailable" naming the limit and closed
// at once, so a client opening connections without end costs a socket
// for a moment, not a goroutine each.
type connLimit struct {
	net.Listener
	max int

	mu   sync.Mutex
	open int
}

func newConnLimit(ln net.Listener, max int) *connLimit {
	return &connLimit{Listener: ln, max: max}
}

// Accept returns the next connection while fewer than max are open,
// refusing those past it.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		ok := l.open < l.max
		if ok {
			l.open++
		}
		l.mu.Unlock()
		if ok {
			return &limitedConn{Conn: c, release: l.release}, nil
		}
		refuse(c, l.max)
	}
}

func (l *connLimit) release() {
	l.mu.Lock()
	l.open--
	l.mu.Unlock()
}

// refuse answers a connection past the limit and closes it. The answer
// fits any socket buffer; the deadline only guards a peer that closed its
// window.
func refuse(c net.Conn, max int) {
	msg := fmt.Sprintf("kitsoki mcp serve: %d connections are open, the most it serves at once; close one and retry\n", max)
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg)
	_ = c.Close()
}

// limitedConn gives its place back once, on the first Close.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
