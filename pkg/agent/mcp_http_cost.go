package agent

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"kitsoki/internal/human"
	"kitsoki/internal/jsoncost"
)

// costlyEvents passes a server-sent event stream on unchanged, one event
// at a time, and fails the read of an event whose data would take over
// jsoncost's limit once decoded: the SDK decodes each event's message,
// its structured content into any, before kitsoki sees the answer. An
// event longer than max, which the SDK refuses itself, and what follows
// it pass on as they come.
type costlyEvents struct {
	io.ReadCloser
	br    *bufio.Reader
	max   int
	floor int64  // jsoncost.Floor (0) or a test's
	out   []byte // the checked event, not yet read
	ev    []byte // the event being read
	raw   bool   // past an event over max
	err   error
	rec   *httpFailure // the call's, told of a refusal (nil: none)
}

func newCostlyEvents(body io.ReadCloser, max int, floor int64, rec *httpFailure) *costlyEvents {
	return &costlyEvents{ReadCloser: body, br: bufio.NewReaderSize(body, 64<<10), max: max, floor: floor, rec: rec}
}

func (c *costlyEvents) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		switch {
		case c.err != nil:
			return 0, c.err
		case c.raw:
			return c.br.Read(p)
		}
		c.fill()
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// fill reads the next event, through the blank line that ends it, into
// out; a read error (io.EOF) comes after what was read before it.
func (c *costlyEvents) fill() {
	c.ev = c.ev[:0]
	start := 0 // where the line being read starts in ev
	for {
		piece, err := c.br.ReadSlice('\n')
		c.ev = append(c.ev, piece...)
		switch {
		case len(c.ev) > c.max+64<<10:
			c.out, c.raw = c.ev, true
			return
		case err == bufio.ErrBufferFull:
			continue // the rest of a long line
		case err != nil:
			c.out, c.err = c.ev, err
			return
		}
		if len(bytes.TrimRight(c.ev[start:], "\r\n")) > 0 {
			start = len(c.ev)
			continue
		}
		if err := costlyAnswer(eventData(c.ev), c.floor); err != nil {
			c.err = err
			if c.rec != nil { // the SDK's error says only that the stream broke
				c.rec.refused(err)
			}
			return
		}
		c.out = c.ev
		return
	}
}

// eventData is the data of an event: the value of its one data line, or
// its data lines' values joined by line feeds.
func eventData(ev []byte) []byte {
	var one, joined []byte
	n := 0
	for line := range bytes.Lines(ev) {
		v, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:"))
		if !ok {
			continue
		}
		v = bytes.TrimPrefix(v, []byte(" "))
		if n++; n == 1 {
			one = v
			continue
		}
		if n == 2 {
			joined = append(bytes.Clone(one), '\n')
		}
		joined = append(append(joined, v...), '\n')
	}
	if n > 1 {
		return joined
	}
	return one
}

// costlyJSON is a JSON answer body, read whole by the SDK, checked as
// costlyEvents checks an event before its first byte is read.
type costlyJSON struct {
	io.ReadCloser
	floor int64
	body  *bytes.Reader
	err   error
}

func (c *costlyJSON) Read(p []byte) (int, error) {
	if c.body == nil && c.err == nil {
		b, err := io.ReadAll(c.ReadCloser) // within the cappedBody below it
		if err == nil {
			err = costlyAnswer(b, c.floor)
		}
		c.body, c.err = bytes.NewReader(b), err
	}
	if c.err != nil {
		return 0, c.err
	}
	return c.body.Read(p)
}

// costlyAnswer refuses a message of the server's that would take over
// jsoncost's limit (floor 0: jsoncost.Floor) once decoded.
func costlyAnswer(msg []byte, floor int64) error {
	if limit, over := jsoncost.Over(msg, floor); over {
		return fmt.Errorf("the server's answer holds %s of JSON that would take over %s once decoded (millions of empty arrays, objects or values); answer with fewer values", human.Size(int64(len(msg))), human.Size(limit))
	}
	return nil
}
