package graph

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"kitsoki/internal/proc"
)

// MaxSVG caps the SVG Graphviz may write for one drawing.
const MaxSVG = 64 << 20

// dotPolicy starts Graphviz's dot with the inherited environment (its
// fonts and plugins).
var dotPolicy = proc.Policy{Env: proc.Env{Policy: proc.EnvInherit}, StderrTail: 4096, WaitDelay: time.Second}

// DotMissingError is --format svg without Graphviz's dot on PATH.
type DotMissingError struct{ Program string }

func (e *DotMissingError) Error() string {
	return fmt.Sprintf("--format svg needs Graphviz's %s program on PATH, and it is not there; install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz) or write --format dot and render it elsewhere", e.Program)
}

// RenderSVG renders g with Graphviz (the program dot, looked up on PATH)
// and returns the SVG.
func RenderSVG(ctx context.Context, g *Graph, o Options) ([]byte, error) {
	return renderSVG(ctx, "dot", g, o)
}

func renderSVG(ctx context.Context, program string, g *Graph, o Options) ([]byte, error) {
	path, err := exec.LookPath(program)
	if err != nil {
		return nil, &DotMissingError{Program: program}
	}
	var in bytes.Buffer
	if err := WriteDOT(&in, g, o); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &cappedBuffer{max: MaxSVG, over: func() { cancel(errSVGTooBig) }}
	cmd := exec.Command(path, "-Tsvg")
	cmd.Stdin, cmd.Stdout = &in, out
	p, err := proc.Start(ctx, cmd, dotPolicy)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %v", path, err)
	}
	werr := p.Wait()
	if out.full {
		return nil, fmt.Errorf("%s wrote more than %d MiB of SVG; draw less with --state or --depth", path, MaxSVG>>20)
	}
	if werr != nil {
		msg := cmp.Or(strings.TrimSpace(p.Tail().String()), werr.Error())
		if ce := context.Cause(ctx); ce != nil {
			msg = ce.Error()
		}
		return nil, fmt.Errorf("%s could not render the drawing: %s", path, msg)
	}
	return []byte(xmlMarkers.Replace(out.buf.String())), nil
}

var errSVGTooBig = errors.New("the SVG passed its size cap")

// cappedBuffer keeps at most max bytes; past that it calls over once and
// drops the rest.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	full bool
	over func()
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.full {
		return len(p), nil
	}
	if c.buf.Len()+len(p) > c.max {
		c.full = true
		c.over()
		return len(p), nil
	}
	return c.buf.Write(p)
}
