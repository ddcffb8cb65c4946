package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"kitsoki/internal/termsafe"
	"kitsoki/pkg/engine"
)

// callSpinner shows the call in progress on a terminal, redrawn in place
// and erased before anything else is printed; off a terminal it is nil
// and every method is a no-op.
type callSpinner struct {
	statusLine
	every time.Duration
	now   func() time.Time

	active []spinCall
	frame  int
	stop   chan struct{}
	done   chan struct{}
}

type spinCall struct {
	handler string
	start   time.Time
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// newCallSpinner returns a spinner drawing on w when w is a terminal, else nil.
func newCallSpinner(w io.Writer) *callSpinner {
	if !redrawable(w) {
		return nil
	}
	s := &callSpinner{statusLine: statusLine{w: w}, every: 100 * time.Millisecond, now: time.Now, stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *callSpinner) loop() {
	defer close(s.done)
	tick := time.NewTicker(s.every)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.mu.Lock()
			if len(s.active) > 0 {
				s.frame = (s.frame + 1) % len(spinFrames)
				s.drawLocked(s.lineLocked())
			}
			s.mu.Unlock()
		}
	}
}

// lineLocked is "⠋ host.run  3.2s" (the oldest call's time), or
// "⠋ 2 calls: host.run, host.agent.decide  3.2s".
func (s *callSpinner) lineLocked() string {
	names := make([]string, len(s.active))
	for i, c := range s.active {
		names[i] = c.handler
	}
	what := names[0]
	if len(names) > 1 {
		what = fmt.Sprintf("%d calls: %s", len(names), strings.Join(names, ", "))
	}
	elapsed := s.now().Sub(s.active[0].start)
	return fmt.Sprintf("%s %s  %.1fs", spinFrames[s.frame], what, elapsed.Seconds())
}

func (s *callSpinner) begin(handler string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active = append(s.active, spinCall{handler: termsafe.Printable(handler), start: s.now()})
}

func (s *callSpinner) end(handler string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	handler = termsafe.Printable(handler)
	if i := slices.IndexFunc(s.active, func(c spinCall) bool { return c.handler == handler }); i >= 0 {
		s.active = slices.Delete(s.active, i, i+1)
	}
	if len(s.active) == 0 {
		s.clearLocked()
	}
}

// close stops the spinner and erases its line.
func (s *callSpinner) close() {
	if s == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.mu.Lock()
	s.clearLocked()
	s.mu.Unlock()
}

// watch returns a sink that starts the spinner on harness.called and
// stops it on harness.returned, passing every event on to inner.
func (s *callSpinner) watch(inner engine.Sink) engine.Sink {
	if s == nil {
		return inner
	}
	return engine.SinkFunc(func(ev engine.Event) error {
		switch ev.Kind {
		case engine.KindHarnessCalled:
			s.begin(payloadNamespace(ev.Payload))
		case engine.KindHarnessReturned:
			s.end(payloadNamespace(ev.Payload))
		}
		return inner.Emit(ev)
	})
}

func payloadNamespace(p any) string {
	if m, ok := p.(map[string]any); ok {
		if ns, ok := m["namespace"].(string); ok {
			return ns
		}
	}
	return "call"
}

// guard returns a writer that erases the spinner's line before each write.
func (s *callSpinner) guard(w io.Writer) io.Writer {
	if s == nil {
		return w
	}
	return spinGuard{s: s, w: w}
}

type spinGuard struct {
	s *callSpinner
	w io.Writer
}

func (g spinGuard) Write(p []byte) (int, error) {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	g.s.clearLocked()
	return g.w.Write(p)
}
