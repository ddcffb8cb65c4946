package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kitsoki/internal/human"
	"kitsoki/pkg/fetch"
)

// fetchDisplay shows fetch progress. On a terminal it redraws one status
// line per artifact in place (a bar, bytes, speed, ETA) and clears it
// before anything else is printed; elsewhere (CI logs, TERM=dumb) it
// prints a plain line every few seconds. Speed and ETA count only the
// bytes moved by this run, never the ones resumed from disk.
type fetchDisplay struct {
	statusLine
	tty   bool
	every time.Duration
	now   func() time.Time

	start   map[string]time.Time
	last    map[string]time.Time
	verStub map[string]bool // the "verifying" line is printed
}

func newFetchDisplay(w io.Writer) *fetchDisplay {
	return &fetchDisplay{statusLine: statusLine{w: w}, tty: redrawable(w), every: 5 * time.Second, now: time.Now,
		start: map[string]time.Time{}, last: map[string]time.Time{}, verStub: map[string]bool{}}
}

// abort erases the status line so that what follows (an error, the
// interrupt message) starts on a line of its own.
func (d *fetchDisplay) abort() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clearLocked()
}

func (d *fetchDisplay) report(p fetch.Progress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := p.Artifact.ID
	now := d.now()
	switch p.Phase {
	case fetch.PhaseWait:
		d.clearLocked()
		fmt.Fprintf(d.w, "waiting for another kitsoki process fetching %s\n", id)
	case fetch.PhaseVerify:
		if !d.verStub[id] {
			d.verStub[id] = true
			d.clearLocked()
			fmt.Fprintf(d.w, "verifying sha256 of the cached %s (%s)\n", id, fetch.ByteCount(p.Total))
		}
		if p.Done >= p.Total {
			d.clearLocked()
			delete(d.verStub, id)
		} else if d.tty {
			d.drawLocked(fmt.Sprintf("verifying %s %s", id, barText(p.Done, p.Total)))
		}
	case fetch.PhaseMismatch:
		d.clearLocked()
		fmt.Fprintf(d.w, "%s: sha256 mismatch on the cached file, downloading again\n", id)
	case fetch.PhaseStart:
		d.clearLocked()
		fmt.Fprintf(d.w, "downloading %s (%s) from %s\n", id, fetch.HumanSize(p.Total), p.Host)
		d.start[id], d.last[id] = now, now
	case fetch.PhaseDownload:
		if p.Done <= p.Resumed {
			// Nothing moved yet in this run (connecting, retrying a refused
			// connection): no "0 B / 200 MB (0%)", but on a terminal say
			// what it waits for.
			if waited := now.Sub(d.start[id]); d.tty && waited >= time.Second {
				d.drawLocked(fmt.Sprintf("%s waiting for %s  %ds", id, p.Host, int(waited.Seconds())))
			}
			return
		}
		line := progressLine(p, now.Sub(d.start[id]))
		if d.tty {
			d.drawLocked(id + " " + line)
			return
		}
		if now.Sub(d.last[id]) < d.every {
			return
		}
		d.last[id] = now
		fmt.Fprintf(d.w, "%s: %s\n", id, line)
	case fetch.PhaseDone:
		d.clearLocked()
		elapsed := now.Sub(d.start[id])
		line := fmt.Sprintf("%s: downloaded %s in %s", id, fetch.ByteCount(p.Done-p.Resumed), human.Duration(elapsed))
		if r := rate(p.Done-p.Resumed, elapsed); r > 0 {
			line += fmt.Sprintf(" (%s/s)", fetch.ByteCount(r))
		}
		if p.Resumed > 0 {
			line += fmt.Sprintf(", resumed after %s already on disk", fetch.ByteCount(p.Resumed))
		}
		fmt.Fprintln(d.w, line)
	}
}

// progressLine is "[=====>    ]  45%  90.0 MB / 200.0 MB  20.0 MB/s  ETA 6s"
// (without the bar and percentage when the size is unknown). elapsed is
// the time since this run's transfer started; speed and ETA use only the
// bytes moved since then (Done - Resumed).
func progressLine(p fetch.Progress, elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString(barText(p.Done, p.Total))
	if r := rate(p.Done-p.Resumed, elapsed); r > 0 {
		fmt.Fprintf(&b, "  %s/s", fetch.ByteCount(r))
		if p.Total > p.Done {
			eta := time.Duration(float64(p.Total-p.Done) / float64(r) * float64(time.Second))
			fmt.Fprintf(&b, "  ETA %s", etaText(eta))
		}
	}
	return b.String()
}

// barText is "[=====>    ]  45%  90.0 MB / 200.0 MB", or the bytes done
// alone when the size is unknown.
func barText(done, total int64) string {
	const width = 20
	if total <= 0 {
		return fetch.ByteCount(done)
	}
	done = min(max(done, 0), total)
	fill := int(done * width / total)
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	return fmt.Sprintf("[%s] %3d%%  %s / %s", bar, done*100/total, fetch.ByteCount(done), fetch.ByteCount(total))
}

// rate is bytes per second over elapsed; 0 when nothing can be said.
func rate(moved int64, elapsed time.Duration) int64 {
	if moved <= 0 || elapsed <= 0 {
		return 0
	}
	return int64(float64(moved) / elapsed.Seconds())
}

func etaText(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1s"
	case d < time.Minute:
		return d.Round(time.Second).String()
	default:
		return d.Round(time.Minute).String()
	}
}
